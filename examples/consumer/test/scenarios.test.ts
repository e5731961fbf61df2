// The README's recipe "Scenarios as a property of your store", word for word (the testbed's
// test/docs-recipes.test.ts fails if the two differ): each scenario as a fast-check property over
// whole plans, and a sweep of 200 seeds, each test with its own time limit, since this project
// leaves vitest's 5 s default as it is.

import { test } from '@fast-check/vitest';
import { assertPasses, executePlan, loadScenario, planArbitrary, seedRange, sweepScenario } from 'concurrency-testbed';
import { expect } from 'vitest';
import openStore from '../src/store.ts';

// Named by its module path, so the replay lines in failures name your store.
const store = { name: './src/store.ts', factory: openStore };
// A scenario run is a whole simulated deployment: these tests take seconds, past vitest's 5 s default.
const TIMEOUT_MS = 120_000;

for (const name of ['stale-holder', 'renewal-race', 'split-brain-partition']) {
  const scenario = loadScenario(name);
  test.prop([planArbitrary(scenario)], { numRuns: 25 })(`${name} holds on my store`, async (plan) => {
    assertPasses(await executePlan(plan, { store }));
  }, TIMEOUT_MS);
}

test('stale-holder, seeds 1..200', async () => {
  const sweep = await sweepScenario({ scenario: loadScenario('stale-holder'), seeds: seedRange(1, 200), store });
  expect(sweep.firstFailure?.violations ?? []).toEqual([]);
}, TIMEOUT_MS);
