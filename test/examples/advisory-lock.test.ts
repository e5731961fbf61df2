// A real library under test (examples/advisory-lock/): leases on PostgreSQL advisory locks through
// `advisory-lock` 2.0.0, bound by their sessions. When a holder is cut off from the database for a
// moment, its lock session ends on the server and the next holder takes the lock; the holder does
// not know until its next call. The unfenced use writes under its old belief after the next owner
// (000 §74, §25): caught, shrunk to a few calls, and the failure replays to the same trace hash.
// The fenced use checks its token and its lock's session with the write, and passes.

import path from 'node:path';
import { describe, test } from 'vitest';
import { usePostgres, type PostgresFixture } from '../postgres/fixture.ts';
import { scratchDirs } from '../scratch-dirs.ts';
import { runCliAsync } from '../cli/run-cli.ts';

const scratch = scratchDirs('testbed-advisory-lock-');
// The store's tables and advisory locks are the whole database's, so two sweeps at once need a
// server each. Each test has its own embedded server and the two run side by side (they mostly
// wait on the database). A shared server (DATABASE_URL) is one database for both: they take turns.
const unfencedPg = usePostgres();
const fencedPg = usePostgres();
const sideBySide = process.env.DATABASE_URL === undefined;
const EXAMPLE = path.resolve(import.meta.dirname, '../../examples/advisory-lock');

function testbed(pg: PostgresFixture, args: ReadonlyArray<string>, cwd: string) {
  return runCliAsync(args, { cwd, env: { DATABASE_URL: pg.server().connectionString }, timeoutMs: 150_000 });
}

interface SweepJson {
  readonly failures: number;
  readonly coverage: { readonly outcomes: { readonly missing: ReadonlyArray<string> } };
}

describe('advisory-lock on the embedded PostgreSQL', { concurrent: sideBySide }, () => {
  test('unfenced: a holder cut off from the database writes after the next owner; caught, shrunk, and replayed exactly', async ({ expect }) => {
    const cwd = scratch();
    const sweep = await testbed(unfencedPg, ['sweep', '--scenario', 'session-loss', '--seeds', '1..5', '--adapter', path.join(EXAMPLE, 'unfenced.ts')], cwd);
    expect(sweep.code, sweep.stderr).toBe(1);
    expect(sweep.stdout).toMatch(/stale owner c\d#\d had Mutate Accepted under token \d+/);
    // The shrunk counterexample: the session ends under the holder, the next owner takes the lock,
    // and the holder's write lands.
    expect(sweep.stdout).toMatch(/counterexample: .*shrunk from \d+ plan steps/);
    expect(sweep.stdout).toMatch(/session-ended scope=(\S+) holder=(c\d#\d) token=\d+ cause=cut-off[\s\S]*Acquire scope=\1 holder=(?!\2)\S+ [^\n]*Acquired[\s\S]*Mutate scope=\1 aggregate=\S+ holder=\2 [^\n]*Accepted/);
    const failureFile = /^failure file: (.+)$/m.exec(sweep.stdout)![1]!;
    const replay = await testbed(unfencedPg, ['replay', failureFile], cwd);
    expect(replay.code, replay.stderr).toBe(1);
    expect(replay.stdout).toMatch(/trace hash matches the failure file/);
  }, 200_000);

  test('fenced: the write checks its token and its session, and every seed passes', async ({ expect }) => {
    const sweep = await testbed(fencedPg, ['sweep', '--scenario', 'session-loss', '--seeds', '1..10', '--adapter', path.join(EXAMPLE, 'fenced.ts'), '--json'], scratch());
    expect(sweep.code, sweep.stdout + sweep.stderr).toBe(0);
    const result = JSON.parse(sweep.stdout) as SweepJson;
    expect(result.failures).toBe(0);
    // Not a vacuous pass: writes were accepted, and a late one was refused.
    expect(result.coverage.outcomes.missing).not.toContain('Mutate:Accepted');
    expect(result.coverage.outcomes.missing).not.toContain('Mutate:StaleFence');
  }, 200_000);
});
