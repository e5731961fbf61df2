// docs/ARCHITECTURE.md "Time and determinism", seed 001 §185: elections draw their timeouts from the seeded PRNG, so a coordination run replays exactly, also from its plan after a JSON round trip.
import { describe, expect, it } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { generatePlan, runScenario } from '../../sim/run.ts';
import { expectSameHashForSameSeed } from '../sim/same-seed.ts';

const store = { name: 'memory', factory: createMemoryStore };

describe('coordination determinism', () => {
  it('gives the same trace hash for the same seed, another for another seed, and the same after a JSON round trip of the plan', async () => {
    const scenario = loadScenario('scheduler-epoch');
    const a = await expectSameHashForSameSeed(scenario, 9);
    const replayed = await runScenario({ scenario, seed: 9, store, plan: JSON.parse(JSON.stringify(a.plan)) });
    expect(replayed.traceHash).toBe(a.traceHash);
  });

  it('adds coordination to the plan only for scenarios that ask for it', () => {
    expect(generatePlan(loadScenario('stale-holder'), 1)).not.toHaveProperty('coordination');
    expect(generatePlan(loadScenario('quorum-loss'), 1).coordination).toMatchObject({ voters: 3, role: 'scheduler' });
  });
});
