// fast-check arbitraries over plans, for property tests (`concurrency-testbed/arbitraries`).
//
// A plan is data, decided up front from (scenario, seed), and any sub-list of its steps is itself
// a plan (sim/run.ts). So `planArbitrary` draws a seed and generates that seed's whole plan, and
// shrinks by deleting steps: a failing `test.prop` ends on a short plan of the seed that failed,
// as the testbed's own shrinker does (campaign/shrink.ts), not merely on a smaller seed.
//
// fast-check is a peer dependency: these are instances of the caller's fast-check.

import { Arbitrary, integer, noShrink, stream, Value, type Random, type Stream } from 'fast-check';
import type { Scenario } from '../scenarios/schema.ts';
import { generatePlan } from '../sim/generate-plan.ts';
import type { Plan } from '../sim/plan.ts';
import { subPlan } from './shrink.ts';

/** The largest seed the `testbed` command accepts. */
export const SEED_MAX = 2 ** 32 - 1;

export interface SeedRange {
  /** Smallest seed drawn (default 1). */
  readonly min?: number;
  /** Largest seed drawn (default `SEED_MAX`). */
  readonly max?: number;
}

function seedBounds(range: SeedRange): { readonly min: number; readonly max: number } {
  const min = range.min ?? 1;
  const max = range.max ?? SEED_MAX;
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min < 0 || max > SEED_MAX || min > max) {
    throw new RangeError(`seed range must satisfy 0 <= min <= max <= ${SEED_MAX}, got ${min}..${max}`);
  }
  return { min, max };
}

/** Seeds in `range`; they shrink towards `min`. */
export function seedArbitrary(range: SeedRange = {}): Arbitrary<number> {
  return integer(seedBounds(range));
}

/**
 * The plans of `scenario`: each value is the whole plan of a seed drawn from `range`, exactly what
 * `runScenario({ scenario, seed })` would play. A failing value shrinks by deleting steps of that
 * plan (halves first, then smaller runs of steps, down to single steps); the seed stays.
 */
export function planArbitrary(scenario: Scenario, range: SeedRange = {}): Arbitrary<Plan> {
  return new PlanArbitrary(scenario, noShrink(integer(seedBounds(range))));
}

class PlanArbitrary extends Arbitrary<Plan> {
  constructor(
    private readonly scenario: Scenario,
    private readonly seeds: Arbitrary<number>,
  ) {
    super();
  }

  override generate(mrng: Random, biasFactor: number | undefined): Value<Plan> {
    const seed = this.seeds.generate(mrng, biasFactor).value;
    return new Value(generatePlan(this.scenario, seed), undefined);
  }

  override canShrinkWithoutContext(value: unknown): value is Plan {
    if (typeof value !== 'object' || value === null) return false;
    const plan = value as Partial<Plan>;
    return plan.version === 1 && plan.scenario === this.scenario.name && Array.isArray(plan.steps);
  }

  override shrink(plan: Plan): Stream<Value<Plan>> {
    return stream(deletions(plan));
  }
}

/**
 * Sub-plans of `plan` with one run of consecutive steps deleted: first all steps, then each half,
 * each quarter, and so on down to each single step. fast-check keeps the first that still fails
 * and shrinks it again, so the end result is 1-minimal: deleting any one step makes it pass.
 */
function* deletions(plan: Plan): Generator<Value<Plan>> {
  const steps = plan.steps;
  for (let size = steps.length; size >= 1; size = size === 1 ? 0 : Math.ceil(size / 2)) {
    for (let start = 0; start < steps.length; start += size) {
      yield new Value(subPlan(plan, [...steps.slice(0, start), ...steps.slice(start + size)]), undefined);
    }
  }
}
