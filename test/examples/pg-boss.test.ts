// A real library under test (examples/pg-boss/): leases as pg-boss 12.38.0 jobs on a singleton
// queue, expired by pg-boss's own supervisor on the run's virtual time (its TestClock, attached
// to the schema). A handler whose job expired while it was paused keeps running; the unfenced use
// writes anyway (pg-boss's expired jobs are not stopped): caught, shrunk, and the failure replays
// to the same trace hash. The fenced use writes only while its job is live, and passes.

import { describe, test } from 'vitest';
import { exampleHarness } from './example-harness.ts';

// The store keeps pg-boss in one fixed schema, so two sweeps at once need a server each.
const example = exampleHarness('pg-boss', 'paused-holder-expiry', 200_000);

describe('pg-boss on the embedded PostgreSQL', { concurrent: example.sideBySide }, () => {
  test('unfenced: a handler whose job expired while it was paused writes anyway; caught, shrunk, and replayed exactly', async ({ expect }) => {
    const sweep = await example.sweepUnfenced(expect);
    const late = /write accepted by (c\d#\d) under token \d+ invoked at store time \d+ \(#\d+\), after that lease expired/.exec(sweep.stdout);
    expect(late, sweep.stdout).not.toBeNull();
    // The shrunk counterexample ends with that holder's write landing after its job expired.
    const counterexample = sweep.stdout.slice(sweep.stdout.indexOf('counterexample: '));
    expect(counterexample).toMatch(/^counterexample: .*shrunk from \d+ plan steps/);
    expect(counterexample).toContain(`holder=${late![1]} `);
    expect(counterexample).toMatch(/Mutate scope=\S+ aggregate=\S+ holder=c\d#\d [^\n]*Accepted/);
    await example.expectReplayMatches(expect, sweep.stdout, sweep.cwd);
  }, 240_000);

  test('fenced: the write checks that its job is still live, and every seed passes', async ({ expect }) => {
    await example.expectFencedPasses(expect);
  }, 240_000);
});
