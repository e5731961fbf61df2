// Shrinking (docs/ARCHITECTURE.md "Shrinking and replay").
//
// `ddmin` is delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating Failure-Inducing
// Input", 2002) over an ordered list, bounded by a number of predicate runs. Its result always
// satisfies the predicate; when the budget was not exhausted it is also 1-minimal (removing any
// single element makes the predicate fail). Order is preserved: a plan's steps are a schedule,
// and a subsequence of a schedule is still a schedule.
//
// `shrinkPlan` applies it to a plan's steps against "the run still shows a violation of the same
// invariant"; campaign/counterexample.ts prints what is left as numbered steps.

import type { OpSpec, Plan, PlanStep } from '../sim/plan.ts';
import { counterexampleOf, countCalls, countOperations } from './counterexample.ts';
import type { RunResult } from '../sim/run-result.ts';

export interface DdminOptions {
  /** Upper bound on predicate evaluations, the input's own check included. */
  readonly maxRuns: number;
}

export interface DdminResult<T> {
  readonly items: ReadonlyArray<T>;
  /** Predicate evaluations spent (cache hits are free). */
  readonly runs: number;
  /** True when the budget ran out before the result was proven 1-minimal. */
  readonly exhausted: boolean;
}

export type SubsetPredicate<T> = (items: ReadonlyArray<T>) => boolean | Promise<boolean>;

/** Thrown when the full input does not satisfy the predicate: there is nothing to shrink. */
export class NotFailingError extends Error {
  constructor(readonly length: number) {
    super(`ddmin: the input of ${length} items does not satisfy the predicate`);
    this.name = 'NotFailingError';
  }
}

export async function ddmin<T>(input: ReadonlyArray<T>, predicate: SubsetPredicate<T>, options: DdminOptions): Promise<DdminResult<T>> {
  if (!Number.isInteger(options.maxRuns) || options.maxRuns < 1) {
    throw new RangeError(`ddmin: maxRuns must be a positive integer, got ${options.maxRuns}`);
  }
  // Subsets are index lists into `input`; the cache keys them so no subset is run twice.
  const cache = new Map<string, boolean>();
  let runs = 0;
  let exhausted = false;
  const test = async (indices: ReadonlyArray<number>): Promise<boolean> => {
    const key = indices.join(',');
    const known = cache.get(key);
    if (known !== undefined) return known;
    if (runs >= options.maxRuns) {
      exhausted = true;
      return false;
    }
    runs += 1;
    const verdict = await predicate(indices.map((i) => input[i] as T));
    cache.set(key, verdict);
    return verdict;
  };

  let current: ReadonlyArray<number> = input.map((_, i) => i);
  if (!(await test(current))) throw new NotFailingError(input.length);
  if (current.length > 0 && (await test([]))) return { items: [], runs, exhausted: false };

  let granularity = 2;
  while (current.length >= 2 && !exhausted) {
    const chunks = split(current, granularity);
    const reduced = (await firstPassing(chunks, test)) ?? (granularity > 2 ? await firstPassing(complements(current, chunks), test) : null);
    if (reduced !== null) {
      const fromChunk = chunks.includes(reduced);
      current = reduced;
      granularity = fromChunk ? 2 : Math.max(granularity - 1, 2);
    } else if (granularity < current.length) {
      granularity = Math.min(granularity * 2, current.length);
    } else {
      break;
    }
  }
  // Leaving the loop at granularity = length means every single-element complement failed
  // (with two chunks the complements are the chunks themselves): the result is 1-minimal.
  return { items: current.map((i) => input[i] as T), runs, exhausted };
}

async function firstPassing(
  candidates: ReadonlyArray<ReadonlyArray<number>>,
  test: (indices: ReadonlyArray<number>) => Promise<boolean>,
): Promise<ReadonlyArray<number> | null> {
  for (const candidate of candidates) if (await test(candidate)) return candidate;
  return null;
}

/** `n` contiguous chunks of near-equal size, none empty (n ≤ length). */
function split(indices: ReadonlyArray<number>, n: number): ReadonlyArray<ReadonlyArray<number>> {
  const chunks: number[][] = [];
  let start = 0;
  for (let k = 0; k < n; k++) {
    const end = start + Math.floor((indices.length - start) / (n - k));
    chunks.push(indices.slice(start, end));
    start = end;
  }
  return chunks;
}

function complements(indices: ReadonlyArray<number>, chunks: ReadonlyArray<ReadonlyArray<number>>): ReadonlyArray<ReadonlyArray<number>> {
  return chunks.map((chunk) => {
    const removed = new Set(chunk);
    return indices.filter((i) => !removed.has(i));
  });
}

// ---------------------------------------------------------------------------------------------
// Plans: ddmin over a plan's steps, against "the run still shows a violation of the same
// invariant", then a readable rendering of what is left.

/** Runs a plan to a result; a sub-plan that the simulator rejects counts as not failing. */
export type PlanExecutor = (plan: Plan) => Promise<RunResult>;

export interface ShrinkPlanOptions {
  /** Upper bound on runs of the executor (default 400). */
  readonly maxRuns?: number;
  /**
   * Extra condition on a candidate sub-plan, checked only once it shows the violation: for a
   * mutant, "the correct implementation passes the same sub-plan", so the counterexample shows
   * the mutant's bug and nothing else.
   */
  readonly alsoRequire?: (plan: Plan) => Promise<boolean>;
}

export interface ShrunkPlan {
  readonly plan: Plan;
  /** The run of the shrunk plan: its history is the counterexample. */
  readonly result: RunResult;
  readonly invariant: string;
  readonly originalSteps: number;
  readonly runs: number;
  readonly exhausted: boolean;
}

export const DEFAULT_SHRINK_RUNS = 400;

/**
 * A plan that showed a violation no longer does when run again: the whole plan handed to
 * `shrinkPlan`, or the smaller plan it settled on. The store does not answer alike on every run
 * (campaign/flaky-failure.ts), so there is nothing to shrink; a caller keeps the plan as it ran.
 */
export class NotReproducedError extends Error {
  constructor(
    readonly plan: 'whole' | 'shrunk',
    readonly scenario: string,
    readonly seed: number,
    readonly invariant: string,
  ) {
    super(`shrinkPlan: the ${plan} plan of ${scenario} seed ${seed} does not show ${invariant} when run again`);
    this.name = 'NotReproducedError';
  }
}

export function violates(result: RunResult, invariant: string): boolean {
  return result.violations.some((violation) => violation.invariant === invariant);
}

export async function shrinkPlan(plan: Plan, execute: PlanExecutor, invariant: string, options: ShrinkPlanOptions = {}): Promise<ShrunkPlan> {
  const maxRuns = options.maxRuns ?? DEFAULT_SHRINK_RUNS;
  const withSteps = (steps: ReadonlyArray<PlanStep>): Plan => subPlan(plan, steps);
  // The run of the last sub-plan that passed, so the answer usually needs no extra run.
  const lastPassing: { current: { readonly steps: ReadonlyArray<PlanStep>; readonly result: RunResult } | null } = { current: null };
  let runs = 0;
  const predicate = async (steps: ReadonlyArray<PlanStep>): Promise<boolean> => {
    runs += 1;
    let result: RunResult;
    try {
      result = await execute(withSteps(steps));
    } catch {
      return false;
    }
    if (!violates(result, invariant)) return false;
    if (options.alsoRequire !== undefined && !(await options.alsoRequire(withSteps(steps)))) return false;
    lastPassing.current = { steps, result };
    return true;
  };
  const shrunk = await ddmin(plan.steps, predicate, { maxRuns }).catch((error: unknown) => {
    throw error instanceof NotFailingError ? new NotReproducedError('whole', plan.scenario, plan.seed, invariant) : error;
  });
  // The counterexample of the last passing run: what simplification must not grow.
  const size = (): Size => {
    const history = counterexampleOf(lastPassing.current!.result, invariant).history;
    return { operations: countOperations(history), calls: countCalls(history) };
  };
  const simplified = shrunk.exhausted ? shrunk.items : await simplifySteps(shrunk.items, predicate, size, maxRuns - runs);
  const shrunkPlan = withSteps(simplified);
  // The answer is the last sub-plan seen to pass, unless a cached verdict was reused: re-run then.
  const kept = lastPassing.current;
  let result: RunResult;
  if (kept !== null && sameSteps(kept.steps, simplified)) {
    result = kept.result;
  } else {
    runs += 1;
    result = await execute(shrunkPlan);
  }
  if (!violates(result, invariant)) throw new NotReproducedError('shrunk', plan.scenario, plan.seed, invariant);
  return { plan: shrunkPlan, result, invariant, originalSteps: plan.steps.length, runs, exhausted: shrunk.exhausted || runs >= maxRuns };
}

/** `plan` with only `steps` (a sub-list of its steps), and only the capacities they use. */
export function subPlan(plan: Plan, steps: ReadonlyArray<PlanStep>): Plan {
  return { ...plan, steps, capacities: capacitiesUsed(plan, steps) };
}

/** The plan's capacity definitions that the remaining operations use: the others are noise. */
function capacitiesUsed(plan: Plan, steps: ReadonlyArray<PlanStep>): Plan['capacities'] {
  const used = new Set<string>();
  for (const step of steps) {
    if (step.kind !== 'op') continue;
    used.add(step.op.scope);
    for (const scope of step.op.scopes ?? []) used.add(scope);
  }
  return plan.capacities.filter((c) => used.has(c.scope));
}

interface Simplification {
  readonly apply: (op: OpSpec) => OpSpec | null;
  /** Kept only when the counterexample gets strictly smaller (else: when it does not grow). */
  readonly strict: boolean;
}

/** A counterexample's size: neither may grow when a simplification is kept. */
interface Size {
  readonly operations: number;
  readonly calls: number;
}

function smaller(next: Size, current: Size, strict: boolean): boolean {
  if (next.operations > current.operations || next.calls > current.calls) return false;
  return !strict || next.operations < current.operations || next.calls < current.calls;
}

/** Lease ttl bounds of a scenario (scenarios/schema.ts `leaseTtlMs`). */
const TTL_MS_MIN = 10;
const TTL_MS_MAX = 600_000;

/**
 * Ways to make one operation simpler without changing what it is: no queueing (no Enqueue, wait
 * and polls), the neutral priority, no work time; and a shorter or longer lease, kept only when
 * it shortens the story (fewer heartbeats, fewer polls).
 */
const SIMPLIFICATIONS: ReadonlyArray<Simplification> = [
  { apply: (op) => (op.wait ? { ...op, wait: false } : null), strict: false },
  { apply: (op) => (op.priority !== 0 ? { ...op, priority: 0 } : null), strict: false },
  { apply: (op) => (op.workMs !== 0 ? { ...op, workMs: 0 } : null), strict: false },
  { apply: (op) => (op.ttlMs * 2 <= TTL_MS_MAX ? { ...op, ttlMs: op.ttlMs * 2 } : null), strict: true },
  { apply: (op) => (Math.floor(op.ttlMs / 2) >= TTL_MS_MIN ? { ...op, ttlMs: Math.floor(op.ttlMs / 2) } : null), strict: true },
];

/**
 * After ddmin: tries each simplification of each remaining operation and keeps it when the
 * violation remains and the counterexample does not grow. `size` measures the last passing run.
 */
async function simplifySteps(
  start: ReadonlyArray<PlanStep>,
  predicate: (steps: ReadonlyArray<PlanStep>) => Promise<boolean>,
  size: () => Size,
  budget: number,
): Promise<ReadonlyArray<PlanStep>> {
  let steps = start;
  let left = budget;
  if (left <= 0 || !(await predicate(steps))) return steps;
  left -= 1;
  let current = size();
  for (let i = 0; i < steps.length; i++) {
    for (const simplification of SIMPLIFICATIONS) {
      const step = steps[i]!;
      if (step.kind !== 'op' || left <= 0) continue;
      const op = simplification.apply(step.op);
      if (op === null) continue;
      const candidate = steps.map((s, j) => (j === i ? { ...step, op } : s));
      left -= 1;
      if (!(await predicate(candidate))) continue;
      const measured = size();
      if (smaller(measured, current, simplification.strict)) {
        steps = candidate;
        current = measured;
      }
    }
  }
  return steps;
}

function sameSteps(a: ReadonlyArray<PlanStep>, b: ReadonlyArray<PlanStep>): boolean {
  return a.length === b.length && a.every((step, i) => step === b[i]);
}
