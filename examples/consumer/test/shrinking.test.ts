// A store with a bug fails the property, and fast-check shrinks the plan that showed it (steps
// deleted, seed kept) to a few steps, which the error message prints as a numbered counterexample.
// Each test says how long it may take: this project leaves vitest's 5 s default as it is.

import fc from 'fast-check';
import { assertPasses, executePlan, generatePlan, loadScenario, planArbitrary, RunFailedError, shrinkPlan } from 'concurrency-testbed';
import { expect, test } from 'vitest';
import { openUnfencedStore } from '../src/store.ts';

const unfenced = { name: 'unfenced', factory: openUnfencedStore };
const staleHolder = loadScenario('stale-holder');

test('fast-check shrinks a failing plan by deleting steps', async () => {
  const property = fc.asyncProperty(planArbitrary(staleHolder), async (plan) => {
    assertPasses(await executePlan(plan, { store: unfenced }));
  });
  const details = await fc.check(property, { numRuns: 100, seed: 1 });
  expect(details.failed).toBe(true);
  const [shrunk] = details.counterexample!;
  const whole = generatePlan(staleHolder, shrunk.seed);
  expect(shrunk.steps.length).toBeLessThan(whole.steps.length / 4);
  expect(details.errorInstance).toBeInstanceOf(RunFailedError);
  expect(String((details.errorInstance as Error).message)).toMatch(/counterexample: stale-holder seed \d+ on unfenced/);
}, 120_000);

test('shrinkPlan gives the same kind of counterexample without fast-check', async () => {
  const execute = (plan: ReturnType<typeof generatePlan>) => executePlan(plan, { store: unfenced });
  for (let seed = 1; seed <= 50; seed++) {
    const plan = generatePlan(staleHolder, seed);
    const result = await execute(plan);
    if (result.valid !== false) continue;
    const shrunk = await shrinkPlan(plan, execute, result.violations[0]!.invariant, { maxRuns: 200 });
    expect(shrunk.plan.steps.length).toBeLessThan(plan.steps.length);
    return;
  }
  throw new Error('the unfenced store passed 50 seeds of stale-holder');
}, 120_000);
