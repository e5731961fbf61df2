// `--interleave` on a store module of the user's own (examples/pg-lease-store/): the store keeps
// its data where the testbed tells it (`options.connectionString`), each simulated process gets
// a store and a connection of its own, and the statements of concurrent calls reach the server in
// a seeded order. The correct store passes; its racy variant (Acquire reads the token counter
// without a lock) passes serially and is caught interleaved, and its failure is shrunk and replays
// to the same trace hash; a store that reads time in SQL gets the run's virtual time (database
// time); a store that connects elsewhere is refused in one line, exit 3.

import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { freshSchemaUrl } from '../../adapters/postgres/interleave/index.ts';
import { usePostgres } from '../postgres/fixture.ts';
import { scratchDirs } from '../scratch-dirs.ts';
import { runCliAsync } from './run-cli.ts';

const scratch = scratchDirs('testbed-interleave-module-');
const pg = usePostgres();
const ROOT = path.resolve(import.meta.dirname, '../..');
const EXAMPLE = path.join(ROOT, 'examples/pg-lease-store');
const SCENARIO = path.join(EXAMPLE, 'contention.json');

function testbed(args: ReadonlyArray<string>, cwd: string) {
  return runCliAsync(args, { cwd, env: { DATABASE_URL: pg.server().connectionString }, timeoutMs: 120_000 });
}

interface SweepJson {
  readonly failures: number;
  readonly firstFailure: { readonly seed: number; readonly failureFile: string | null; readonly shrunk: boolean } | null;
}

describe('--interleave on a store module', () => {
  test('the correct store passes interleaved', async () => {
    const result = await testbed(['sweep', '--scenario', SCENARIO, '--seeds', '1..3', '--adapter', path.join(EXAMPLE, 'lease-store.ts'), '--interleave', '--json'], scratch());
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as SweepJson).failures).toBe(0);
  }, 120_000);

  test('the racy store is caught interleaved and shrunk, the same seed passes serially, and the failure replays exactly', async () => {
    const cwd = scratch();
    const racy = path.join(EXAMPLE, 'racy.ts');
    const interleaved = await testbed(['sweep', '--scenario', SCENARIO, '--seeds', '1..3', '--adapter', racy, '--interleave', '--json'], cwd);
    expect(interleaved.code, interleaved.stderr).toBe(1);
    const first = (JSON.parse(interleaved.stdout) as SweepJson).firstFailure!;
    expect(first.failureFile).toBeTruthy();
    // The store declares itself deterministic: the failure was shrunk, each smaller plan interleaved.
    expect(first.shrunk).toBe(true);
    // Serially (the store on DATABASE_URL, in a schema of its own) the same seed passes.
    const schema = pg.freshSchema();
    const url = await freshSchemaUrl(pg.server().connectionString, schema);
    const serial = await runCliAsync(['run', '--scenario', SCENARIO, '--seed', String(first.seed), '--adapter', racy], { cwd, env: { DATABASE_URL: url }, timeoutMs: 120_000 });
    expect(serial.code, serial.stdout + serial.stderr).toBe(0);
    const replay = await testbed(['replay', first.failureFile!, '--adapter', racy], cwd);
    expect(replay.code, replay.stderr).toBe(1);
    expect(replay.stdout).toMatch(/trace hash matches the failure file/);
  }, 180_000);

  test('database time: a store that reads store time in SQL (now(), after its lock) decides on the run\'s virtual time', async () => {
    // The store is compared with the reference model outcome for outcome (differential): a lease
    // stamped with the server's own clock would diverge at its first Acquire.
    const result = await testbed(['sweep', '--scenario', SCENARIO, '--seeds', '1..3', '--adapter', path.join(EXAMPLE, 'sql-time.ts'), '--interleave', '--json'], scratch());
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as SweepJson).failures).toBe(0);
  }, 120_000);

  test('free-running (--concurrency free): the racy store is caught, and replay reruns the plan and counts how often it came back', async () => {
    const cwd = scratch();
    const racy = path.join(EXAMPLE, 'racy.ts');
    const free = await testbed(['sweep', '--scenario', SCENARIO, '--seeds', '1..5', '--adapter', racy, '--concurrency', 'free', '--json'], cwd);
    expect(free.code, free.stderr).toBe(1);
    const first = (JSON.parse(free.stdout) as SweepJson).firstFailure!;
    const replay = await testbed(['replay', first.failureFile!, '--trust-file-adapter', '--json'], cwd);
    const reruns = JSON.parse(replay.stdout) as { reruns: number; reproduced: number; exact: boolean };
    expect(reruns).toMatchObject({ reruns: 10, exact: false });
    expect(replay.code).toBe(reruns.reproduced > 0 ? 1 : 0);
  }, 180_000);

  test('a store that connects elsewhere cannot be interleaved: one line, exit 3', async () => {
    const result = await testbed(['run', '--scenario', SCENARIO, '--seed', '1', '--adapter', path.join(ROOT, 'test/stress/fixtures/model-store.ts'), '--interleave'], scratch());
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/made no connection through the connection string it was given/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
