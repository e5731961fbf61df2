// A real library under test (examples/advisory-lock/): leases on PostgreSQL advisory locks through
// `advisory-lock` 2.0.0, bound by their sessions. When a holder is cut off from the database for a
// moment, its lock session ends on the server and the next holder takes the lock; the holder does
// not know until its next call. The unfenced use writes under its old belief after the next owner
// (000 §74, §25): caught, shrunk to a few calls, and the failure replays to the same trace hash.
// The fenced use checks its token and its lock's session with the write, and passes.

import { describe, test } from 'vitest';
import { exampleHarness } from './example-harness.ts';

// The store's tables and advisory locks are the whole database's, so two sweeps at once need a
// server each.
const example = exampleHarness('advisory-lock', 'session-loss', 150_000);

describe('advisory-lock on the embedded PostgreSQL', { concurrent: example.sideBySide }, () => {
  test('unfenced: a holder cut off from the database writes after the next owner; caught, shrunk, and replayed exactly', async ({ expect }) => {
    const sweep = await example.sweepUnfenced(expect);
    expect(sweep.stdout).toMatch(/stale owner c\d#\d had Mutate Accepted under token \d+/);
    // The shrunk counterexample: the session ends under the holder, the next owner takes the lock,
    // and the holder's write lands.
    expect(sweep.stdout).toMatch(/counterexample: .*shrunk from \d+ plan steps/);
    expect(sweep.stdout).toMatch(/session-ended scope=(\S+) holder=(c\d#\d) token=\d+ cause=cut-off[\s\S]*Acquire scope=\1 holder=(?!\2)\S+ [^\n]*Acquired[\s\S]*Mutate scope=\1 aggregate=\S+ holder=\2 [^\n]*Accepted/);
    await example.expectReplayMatches(expect, sweep.stdout, sweep.cwd);
  }, 200_000);

  test('fenced: the write checks its token and its session, and every seed passes', async ({ expect }) => {
    await example.expectFencedPasses(expect);
  }, 200_000);
});
