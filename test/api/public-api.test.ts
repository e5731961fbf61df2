// The package's public entry (index.ts): the names it exports, and the pieces that exist for
// users' own tests: plan arbitraries that shrink by deleting steps, sweeps, assertPasses.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as api from '../../index.ts';
import { inProcessAdapter } from '../../mutants/in-process.ts';

const { assertPasses, defineScenario, executePlan, generatePlan, loadScenario, planArbitrary, RunFailedError, ScenarioError, seedArbitrary, seedRange, sweepScenario } = api;
const memory = inProcessAdapter('memory')!.store;
const staleHolder = loadScenario('stale-holder');

describe('public entry', () => {
  test('exports exactly the chosen names (a change here is a change of the public API)', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'CHECKERS',
        'FailureFileError',
        'INVARIANT_NAMES',
        'OutcomeUnknownError',
        'RunFailedError',
        'SEED_MAX',
        'ScenarioError',
        'StoreEscapeError',
        'StoreUnavailableError',
        'assertPasses',
        'checkAll',
        'checkStore',
        'clockKit',
        'createMemoryStore',
        'defineScenario',
        'executePlan',
        'failureOf',
        'formatCounterexample',
        'generatePlan',
        'isInvariantName',
        'isStoreEscape',
        'listScenarios',
        'loadScenario',
        'parseScenario',
        'planArbitrary',
        'readFailureFile',
        'renderCounterexample',
        'replayFailure',
        'runScenario',
        'seedArbitrary',
        'seedRange',
        'shrinkPlan',
        'subPlan',
        'sweepScenario',
        'writeFailureFile',
      ].sort(),
    );
  });

  test('defineScenario validates like a scenario file', () => {
    const input: api.ScenarioInput = {
      name: 'mine',
      title: 'Mine',
      sources: ['000 §281'],
      workload: { controllers: 2, scopes: 1, mix: { 'env-deploy': 1 }, horizonMs: 3_000, leaseTtlMs: 500 },
      faults: {},
      invariants: ['lease-exclusive'],
      expect: 'pass',
      operations: 5,
    };
    expect(defineScenario(input).faults.scripted).toEqual([]);
    expect(() => defineScenario({ ...input, operations: 0 })).toThrow(ScenarioError);
    expect(() => defineScenario({ ...input, operations: 0 })).toThrow(/^invalid scenario mine: operations/);
  });
});

describe('planArbitrary', () => {
  test("each value is the whole plan of its seed, and seeds stay in range", () => {
    for (const plan of fc.sample(planArbitrary(staleHolder, { min: 5, max: 9 }), 10)) {
      expect(plan.seed).toBeGreaterThanOrEqual(5);
      expect(plan.seed).toBeLessThanOrEqual(9);
      expect(plan).toEqual(generatePlan(staleHolder, plan.seed));
    }
    expect(() => seedArbitrary({ min: 3, max: 2 })).toThrow(RangeError);
  });

  test('a failing property shrinks to a 1-minimal sub-plan of the same seed', () => {
    // Fails on any plan with two operations or more: the minimal failing plan is two operations.
    const details = fc.check(
      fc.property(planArbitrary(staleHolder), (plan) => plan.steps.filter((s) => s.kind === 'op').length < 2),
      { seed: 42, numRuns: 5 },
    );
    expect(details.failed).toBe(true);
    const [shrunk] = details.counterexample!;
    const whole = generatePlan(staleHolder, shrunk.seed);
    expect(shrunk.steps.map((s) => s.kind)).toEqual(['op', 'op']);
    // Steps are deleted, never changed or reordered.
    const shrunkSteps = shrunk.steps.map((step) => JSON.stringify(step));
    expect(whole.steps.map((step) => JSON.stringify(step)).filter((step) => shrunkSteps.includes(step))).toEqual(shrunkSteps);
  });
});

describe('sweepScenario and assertPasses', () => {
  test('the memory store passes a sweep; a mutant fails it, and assertPasses prints the counterexample', async () => {
    const clean = await sweepScenario({ scenario: staleHolder, seeds: seedRange(1, 3), store: memory });
    expect(clean).toMatchObject({ scenario: 'stale-holder', adapter: 'memory', runs: 3, failures: 0, undecided: 0, firstFailure: null });

    const mutant = inProcessAdapter('mutant:no-fencing-check')!;
    const broken = await sweepScenario({ scenario: staleHolder, seeds: seedRange(1, 100), store: mutant.store, stopAtFirstFailure: true });
    expect(broken.failures).toBe(1);
    expect(broken.runs).toBe(broken.firstFailure!.seed);
    expect(() => assertPasses(broken.firstFailure!)).toThrow(RunFailedError);
    expect(() => assertPasses(broken.firstFailure!)).toThrow(/counterexample: stale-holder seed \d+ on mutant:no-fencing-check/);
    assertPasses(await executePlan(generatePlan(staleHolder, 1), { store: memory }));
  });
});
