// A sharded gate run merged equals the unsharded run: the same gate statuses, counts and evidence
// (only wall-clock times differ). Shards are named by --shard or by the environment a Kubernetes
// Indexed Job sets; a set that is not exactly shards 1..n of one run is refused in one line.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { runCliAsync, type CliResult } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-shards-');
const root = scratch();
const dir = (name: string) => path.join(root, name);
const SMALL = ['--seeds', '1', '--no-postgres'];

/** Wall-clock times are report metadata; everything else must be equal. */
const TIMING = new Set(['durationMs', 'startedAt', 'finishedAt', 'firstFailureMs']);
const withoutTimes = (file: string) => JSON.stringify(JSON.parse(readFileSync(file, 'utf8')), (key, value: unknown) => (TIMING.has(key) ? undefined : value));

let whole: CliResult;
let merged: CliResult;

beforeAll(async () => {
  const [w, s1, s2, m1, m2] = await Promise.all([
    runCliAsync(['gates', ...SMALL, '--out', dir('whole'), '--json'], { timeoutMs: 300_000 }),
    runCliAsync(['gates', ...SMALL, '--shard', '1/2', '--out', dir('s1')], { timeoutMs: 300_000 }),
    // The second shard as a Kubernetes Indexed Job names it: a 0-based index and a count.
    runCliAsync(['gates', ...SMALL, '--out', dir('s2')], { env: { TESTBED_SHARDS: '2', JOB_COMPLETION_INDEX: '1' }, timeoutMs: 300_000 }),
    runCliAsync(['mutants', '--seeds', '1', '--shard', '1/2', '--out', dir('m1'), '--json'], { timeoutMs: 300_000 }),
    runCliAsync(['mutants', '--seeds', '1', '--out', dir('m2'), '--json'], { env: { TESTBED_SHARD: '2/2' }, timeoutMs: 300_000 }),
  ]);
  whole = w;
  for (const [shard, result] of [['s1', s1], ['s2', s2], ['m1', m1], ['m2', m2]] as const) {
    // A shard's exit code says only that its share ran and was recorded; the verdict is the merge's.
    expect(result.code, `${shard}: ${result.stderr}`).toBe(0);
  }
  expect(s1.stdout).toContain(`shard 1/2 written: ${path.join(dir('s1'), 'shard-1-of-2.json')}`);
  merged = await runCliAsync(['merge', dir('s1'), path.join(dir('s2'), 'shard-2-of-2.json'), '--out', dir('merged'), '--json']);
}, 600_000);

describe('gates --shard i/n, then merge', () => {
  test('gives the gate statuses, evidence and exit code of the unsharded run', () => {
    expect(merged.code, merged.stderr).toBe(whole.code);
    const gates = (result: CliResult) => (JSON.parse(result.stdout) as { gates: Array<{ id: string; status: string; evidence: { summary: string } }> }).gates;
    expect(gates(merged).map((g) => [g.id, g.status, g.evidence.summary])).toEqual(gates(whole).map((g) => [g.id, g.status, g.evidence.summary]));
    // Not a vacuous equality: the small run has passing, partial and failing rows.
    expect(new Set(gates(whole).map((g) => g.status))).toEqual(new Set(['pass', 'partial', 'fail', 'untested']));
    expect(withoutTimes(path.join(dir('merged'), 'results.json'))).toBe(withoutTimes(path.join(dir('whole'), 'results.json')));
    for (const file of ['gates.json', 'gates.md', 'junit.xml', 'index.html']) expect(existsSync(path.join(dir('merged'), file)), file).toBe(true);
  });

  test('mutants shards merged hold the hunts of the whole gate run, mutant for mutant, and exit as `mutants` does', async () => {
    const result = await runCliAsync(['merge', dir('m1'), dir('m2'), '--out', dir('mutants-merged'), '--json']);
    const { mutants } = JSON.parse(result.stdout) as { mutants: Array<{ name: string; caughtBy: string[] }> };
    expect(mutants.length).toBeGreaterThan(40);
    // Exit 1 exactly when a mutant escaped both the simulator and the command-level check.
    expect(result.code, result.stderr).toBe(mutants.every((m) => m.caughtBy.length > 0) ? 0 : 1);
    const mutantsOf = (file: string) => JSON.stringify((JSON.parse(withoutTimes(file)) as { mutants: unknown }).mutants);
    expect(mutantsOf(path.join(dir('mutants-merged'), 'results.json'))).toBe(mutantsOf(path.join(dir('whole'), 'results.json')));
  });

  test('--dry-run prints the share and runs nothing', async () => {
    const result = await runCliAsync(['gates', '--seeds', '7', '--shard', '2/3', '--dry-run', '--json', '--out', dir('dry')]);
    expect(result.code, result.stderr).toBe(0);
    const { share } = JSON.parse(result.stdout) as { share: { memorySeeds: number[]; suites: boolean } };
    expect(share.memorySeeds).toEqual([2, 5]);
    expect(share.suites).toBe(false);
    expect(existsSync(dir('dry'))).toBe(false);
  });
});

describe('merge refuses a bad shard set with one line, exit 2, writing nothing', () => {
  const refused = async (args: ReadonlyArray<string>, message: RegExp) => {
    const out = dir(`refused-${Math.random().toString(36).slice(2)}`);
    const result = await runCliAsync(['merge', ...args, '--out', out]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  };

  test('a missing shard', () => refused([dir('s1')], /^testbed: shard 2\/2 missing: got 1 of 2$/m));
  test('a shard given twice', () => refused([dir('s1'), dir('s2'), dir('s1')], /shard-1-of-2\.json: shard 1\/2 is given twice/));
  test('shards of different commands', () => refused([dir('s1'), dir('m2')], /a shard of `mutants`, but \S+ is a shard of `gates`/));
  test('a file that is not a shard', () => refused([path.join(dir('whole'), 'results.json')], /results\.json: not a shard file: format: /));
  test('a directory without shards', () => refused([dir('whole')], /holds no shard file/));
});
