// The lease-only store with opaque fences (src/lease-store.ts), written from the rule book rather
// than over the testbed's memory store, through the public API: the conformance suite, the
// command-level check, and sweeps of the scenarios its commands can play (run.sh sweeps more seeds through the command). Its fences are strings of
// its own, judged by equality (one grant each, never reused), never by order. `run.sh` also puts it
// through `npx testbed check`, `sweep` and `stress`. Each test says how long it may take: this
// project leaves vitest's 5 s default as it is.

import { checkStore, formatCounterexample, loadScenario, runScenario, seedRange, sweepScenario } from 'concurrency-testbed';
import { describeStoreConformance } from 'concurrency-testbed/conformance';
import { describe, expect, test } from 'vitest';
import openStore, { openLeaseStore } from '../src/lease-store.ts';

const store = { name: './src/lease-store.ts', factory: openStore };

describeStoreConformance('the lease store', (time) => openLeaseStore({ time }));

describe('a lease-only store with opaque fences', () => {
  test('agrees with the reference model command by command; the order of its fences is not judged', async () => {
    const result = await checkStore({ factory: openStore, runs: 2_000, seed: 1 });
    const detail = result.verdict === 'fail' ? formatCounterexample(result.steps).join('\n') : '';
    expect(result.verdict, detail).toBe('pass');
    if (result.verdict === 'undecided') return;
    expect(result.fencing).toBe('opaque');
    expect(result.notJudged).toContain("the order of the store's fences (compared by equality only)");
  }, 120_000);

  test('a write checked against the scope its fence names, not the grant, is caught on a few steps', async () => {
    const result = await checkStore({ factory: (options) => openLeaseStore(options, 'fence-by-scope'), runs: 2_000, seed: 1 });
    if (result.verdict !== 'fail') throw new Error(`expected a divergence, got ${result.verdict}`);
    expect(result.broken.rule).toBe('stale-fence');
    expect(result.sequence.length).toBeLessThanOrEqual(10);
    expect(result.steps.at(-1)?.command).toMatchObject({ kind: 'Mutate' });
  }, 120_000);

  test.each(['stale-holder', 'renewal-race', 'split-brain-partition'])('%s passes seeds 1..30', async (name) => {
    const sweep = await sweepScenario({ scenario: loadScenario(name), seeds: seedRange(1, 30), store });
    expect(sweep.firstFailure?.violations ?? []).toEqual([]);
    expect(sweep).toMatchObject({ runs: 30, failures: 0, undecided: 0 });
  }, 120_000);

  test('a scenario that needs commands it lacks is untested, neither passed nor failed', async () => {
    const run = await runScenario({ scenario: loadScenario('jobs-db-failover'), seed: 1, store });
    expect(run.valid).toBe('unknown');
    expect(run.untested).toMatch(/^the store lacks .*SubmitJob/);
  }, 60_000);
});
