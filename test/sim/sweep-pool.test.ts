// DESIGN.md "Time and determinism": a sweep spread over worker threads gives exactly the runs of a single-threaded sweep, in the same order.
import { describe, expect, it } from 'vitest';
import { sweepPool, sweepRun } from '../../sim/sweep-pool.ts';

describe('sweep pool', () => {
  it('returns the same runs, in (scenario, seed) order, as running them one after another', async () => {
    const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
    const scenarios = ['standard-mix', 'clock-skew'];
    const pooled = await sweepPool({ scenarios, seeds, adapter: 'memory', workers: 2 });
    const serial = [];
    for (const scenario of scenarios) for (const seed of seeds) serial.push(await sweepRun(scenario, seed, 'memory'));
    expect(pooled).toEqual(serial);
  });

  it('rejects an adapter a worker cannot build by name', async () => {
    await expect(sweepPool({ scenarios: ['clock-skew'], seeds: [1], adapter: 'mutant:no-such-mutant', workers: 1 })).rejects.toThrow(/not 'memory' or a known/);
  });
});
