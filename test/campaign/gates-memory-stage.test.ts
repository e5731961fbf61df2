// The gate suite's memory stage (000 §316 evidence) gives the same evidence, kept runs and trace
// hashes on worker threads as on one thread; the runs it keeps carry their full histories.
import { expect, test } from 'vitest';
import { memorySweeps } from '../../campaign/gates/sweeps.ts';
import { loadScenario } from '../../scenarios/index.ts';

test('memory stage: worker threads and one thread agree, kept runs included', async () => {
  const scenarios = ['stale-holder', 'db-failover-unmitigated'].map((name) => loadScenario(name));
  const seeds = [1, 2, 3, 4, 5, 6];
  let ticks = 0;
  const pooled = await memorySweeps(scenarios, seeds, (_, count = 1) => (ticks += count), 2);
  const serial = await memorySweeps(scenarios, seeds, () => undefined, 1);
  expect(ticks).toBe(scenarios.length * seeds.length);
  const view = (sweeps: typeof pooled) =>
    // The stage's wall-clock share differs between runs; everything else must not.
    sweeps.map((s) => ({ evidence: { ...s.evidence, durationMs: undefined }, sample: s.sample?.traceHash, failing: s.failing?.traceHash, hashes: [...s.hashes] }));
  expect(view(pooled)).toEqual(view(serial));
  const [clean, caught] = pooled;
  expect(clean!.evidence.failures).toBe(0);
  expect(clean!.failing).toBeNull();
  expect(clean!.sample!.history.length).toBeGreaterThan(0);
  // 000 §272–§276: the unmitigated failover is caught, and its first failing run is kept whole.
  expect(caught!.evidence.failures).toBeGreaterThan(0);
  expect(caught!.failing!.valid).toBe(false);
  expect(caught!.failing!.history.length).toBeGreaterThan(0);
  expect(caught!.evidence.firstFailure!.seed).toBe(caught!.failing!.seed);
});
