// Test suites as gate evidence: the gate run executes a few vitest suites itself (the store
// conformance suite on memory and PostgreSQL, idempotency key scoping, scope identity, SQL races
// under controlled interleaving and explored by the race stage) and
// counts their results, so those gates rest on tests that ran in the same run.

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { guardServers } from '../../adapters/postgres/local-server.ts';
import type { SuiteEvidence } from './evidence.ts';

// The package root, whether this runs from the sources (campaign/gates/) or compiled (dist/campaign/gates/).
const ROOT = path.resolve(import.meta.dirname, path.basename(path.resolve(import.meta.dirname, '../..')) === 'dist' ? '../../..' : '../..');
const VITEST = path.join(ROOT, 'node_modules/vitest/vitest.mjs');

/** How long the suites may run in all: minutes on a loaded 2-core machine, never a hang. */
const SUITES_TIMEOUT_MS = 900_000;

interface SuiteSpec {
  readonly name: string;
  readonly file: string;
  /** Only the tests under this describe title count (a file may test several stores). */
  readonly under?: string;
  readonly needsPostgres: boolean;
}

const SUITES: ReadonlyArray<SuiteSpec> = [
  { name: 'conformance', file: 'test/conformance/stores.test.ts', under: 'store conformance: memory', needsPostgres: true },
  { name: 'conformance-postgres', file: 'test/conformance/stores.test.ts', under: 'store conformance: postgres', needsPostgres: true },
  { name: 'idempotency', file: 'test/model/idempotency-rules.test.ts', needsPostgres: false },
  { name: 'scope-identity', file: 'test/model/scope.test.ts', needsPostgres: false },
  // Real concurrency on PostgreSQL, replayable: the store passes interleaved, and each SQL race
  // mutant that interleaving can expose is caught (the suite fails if one escapes).
  { name: 'sql-races-interleaved', file: 'test/postgres/interleave.test.ts', needsPostgres: true },
  // The race stage (campaign/race/): the store passes every schedule of the cases it explores, and
  // every SQL race mutant whose race is between client statements fails a case of its race kinds
  // with a schedule that replays exactly (the suite fails if one escapes).
  { name: 'sql-races-exhaustive', file: 'test/postgres/race.test.ts', needsPostgres: true },
];

interface VitestJson {
  readonly testResults: ReadonlyArray<{
    readonly name: string;
    readonly status: string;
    readonly startTime?: number;
    readonly endTime?: number;
    readonly assertionResults: ReadonlyArray<{ readonly ancestorTitles: ReadonlyArray<string>; readonly status: string; readonly duration?: number | null }>;
  }>;
}

/**
 * The suites' results. An installed package ships none of the suites: then there are no results
 * at all, and the gates that rest on them show as untested, never as passed. In a checkout, a
 * suite that did not run counts as failed.
 */
export function runSuites(withPostgres: boolean): SuiteEvidence[] {
  const specs = SUITES.filter((s) => withPostgres || !s.needsPostgres);
  const files = [...new Set(specs.map((s) => s.file))];
  if (!files.some((file) => existsSync(path.join(ROOT, file)))) return [];
  // Guarded from before it exists: if this process dies, the watchdog ends the vitest run (its
  // command line names the dir) and removes the dir.
  const dir = path.join(tmpdir(), `testbed-suites-${randomBytes(6).toString('hex')}`);
  const guard = guardServers(dir, () => []);
  const output = path.join(dir, 'vitest.json');
  try {
    mkdirSync(dir, { mode: 0o700 });
    spawnSync(process.execPath, [VITEST, 'run', ...files, '--reporter=json', `--outputFile=${output}`], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: 'ignore',
      timeout: SUITES_TIMEOUT_MS,
    });
    let report: VitestJson;
    try {
      report = JSON.parse(readFileSync(output, 'utf8')) as VitestJson;
    } catch {
      // The suites did not even report: every one of them counts as failed.
      return specs.map((s) => ({ name: s.name, passed: 0, failed: 1 }));
    }
    return specs.map((spec) => {
      const file = report.testResults.find((r) => path.relative(ROOT, r.name) === spec.file);
      const tests = (file?.assertionResults ?? []).filter((t) => spec.under === undefined || t.ancestorTitles.includes(spec.under));
      // A file that did not run (missing, import error, a setup that threw) is a failure, never an absence.
      const fileBroken = file === undefined || file.status === 'failed' || tests.length === 0;
      // Real time: the tests' own durations, or the file's when the tests carry none.
      const testsMs = tests.reduce((n, t) => n + (t.duration ?? 0), 0);
      const fileMs = file?.startTime !== undefined && file.endTime !== undefined ? file.endTime - file.startTime : 0;
      return {
        name: spec.name,
        passed: tests.filter((t) => t.status === 'passed').length,
        failed: Math.max(fileBroken ? 1 : 0, tests.filter((t) => t.status === 'failed').length),
        durationMs: Math.round(testsMs > 0 ? testsMs : fileMs),
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    guard.release();
  }
}
