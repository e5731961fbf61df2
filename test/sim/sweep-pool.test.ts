// docs/ARCHITECTURE.md "Time and determinism": a sweep spread over worker threads gives exactly the runs of a single-threaded sweep, in the same order.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios/index.ts';
import { sweepPool, sweepRun, type SweepRun } from '../../campaign/sweep-pool.ts';

describe('sweep pool', () => {
  it('returns the same runs, in (scenario, seed) order, as running them one after another', async () => {
    const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
    const scenarios = ['standard-mix', 'clock-skew'].map((name) => loadScenario(name));
    const reported: SweepRun[] = [];
    const pooled = await sweepPool({ scenarios, seeds, adapter: 'memory', workers: 2, onRuns: (runs) => reported.push(...runs) });
    const serial = [];
    for (const scenario of scenarios) for (const seed of seeds) serial.push(await sweepRun(scenario, seed, 'memory'));
    expect(pooled).toEqual(serial);
    expect(reported).toHaveLength(serial.length);
  });

  it('runs a policy mutant under its broken policy in the workers too', async () => {
    // 000 §59–§70, §291: the mutant that re-issues a timed-out effect blindly is caught on these seeds.
    const scenario = loadScenario('provider-timeout-unknown');
    const seeds = [1, 2, 3, 4];
    const pooled = await sweepPool({ scenarios: [scenario], seeds, adapter: 'mutant:blind-retry-after-timeout', workers: 2 });
    const serial = [];
    for (const seed of seeds) serial.push(await sweepRun(scenario, seed, 'mutant:blind-retry-after-timeout'));
    expect(pooled).toEqual(serial);
    expect(pooled.some((run) => run.valid === false)).toBe(true);
  });

  it('rejects an adapter a worker cannot build by name', async () => {
    await expect(sweepPool({ scenarios: [loadScenario('clock-skew')], seeds: [1], adapter: 'mutant:no-such-mutant', workers: 1 })).rejects.toThrow(/not 'memory' or a known/);
  });
});
