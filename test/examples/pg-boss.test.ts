// A real library under test (examples/pg-boss/): leases as pg-boss 12.38.0 jobs on a singleton
// queue, expired by pg-boss's own supervisor on the run's virtual time (its TestClock, attached
// to the schema). A handler whose job expired while it was paused keeps running; the unfenced use
// writes anyway (pg-boss's expired jobs are not stopped): caught, shrunk, and the failure replays
// to the same trace hash. The fenced use writes only while its job is live, and passes.

import path from 'node:path';
import { describe, test } from 'vitest';
import { usePostgres, type PostgresFixture } from '../postgres/fixture.ts';
import { scratchDirs } from '../scratch-dirs.ts';
import { runCliAsync } from '../cli/run-cli.ts';

const scratch = scratchDirs('testbed-pg-boss-');
// The store keeps pg-boss in one fixed schema, so two sweeps at once need a server each. Each
// test has its own embedded server and the two run side by side (they mostly wait on the
// database). A shared server (DATABASE_URL) is one database for both: they take turns on it.
const unfencedPg = usePostgres();
const fencedPg = usePostgres();
const sideBySide = process.env.DATABASE_URL === undefined;
const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/pg-boss');

function testbed(pg: PostgresFixture, args: ReadonlyArray<string>, cwd: string) {
  return runCliAsync(args, { cwd, env: { DATABASE_URL: pg.server().connectionString }, timeoutMs: 200_000 });
}

interface SweepJson {
  readonly failures: number;
  readonly coverage: { readonly outcomes: { readonly missing: ReadonlyArray<string> } };
}

describe('pg-boss on the embedded PostgreSQL', { concurrent: sideBySide }, () => {
  test('unfenced: a handler whose job expired while it was paused writes anyway; caught, shrunk, and replayed exactly', async ({ expect }) => {
    const cwd = scratch();
    const sweep = await testbed(unfencedPg, ['sweep', '--scenario', 'paused-holder-expiry', '--seeds', '1..5', '--adapter', path.join(EXAMPLE, 'unfenced.ts')], cwd);
    expect(sweep.code, sweep.stderr).toBe(1);
    const late = /write accepted by (c\d#\d) under token \d+ invoked at store time \d+ \(#\d+\), after that lease expired/.exec(sweep.stdout);
    expect(late, sweep.stdout).not.toBeNull();
    // The shrunk counterexample ends with that holder's write landing after its job expired.
    const counterexample = sweep.stdout.slice(sweep.stdout.indexOf('counterexample: '));
    expect(counterexample).toMatch(/^counterexample: .*shrunk from \d+ plan steps/);
    expect(counterexample).toContain(`holder=${late![1]} `);
    expect(counterexample).toMatch(/Mutate scope=\S+ aggregate=\S+ holder=c\d#\d [^\n]*Accepted/);
    const failureFile = /^failure file: (.+)$/m.exec(sweep.stdout)![1]!;
    const replay = await testbed(unfencedPg, ['replay', failureFile], cwd);
    expect(replay.code, replay.stderr).toBe(1);
    expect(replay.stdout).toMatch(/trace hash matches the failure file/);
  }, 240_000);

  test('fenced: the write checks that its job is still live, and every seed passes', async ({ expect }) => {
    const sweep = await testbed(fencedPg, ['sweep', '--scenario', 'paused-holder-expiry', '--seeds', '1..10', '--adapter', path.join(EXAMPLE, 'fenced.ts'), '--json'], scratch());
    expect(sweep.code, sweep.stdout + sweep.stderr).toBe(0);
    const result = JSON.parse(sweep.stdout) as SweepJson;
    expect(result.failures).toBe(0);
    // Not a vacuous pass: writes were accepted, and a late one was refused.
    expect(result.coverage.outcomes.missing).not.toContain('Mutate:Accepted');
    expect(result.coverage.outcomes.missing).not.toContain('Mutate:StaleFence');
  }, 240_000);
});
