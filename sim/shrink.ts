// Shrinking (docs/ARCHITECTURE.md "Shrinking and replay").
//
// `ddmin` is delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating Failure-Inducing
// Input", 2002) over an ordered list, bounded by a number of predicate runs. Its result always
// satisfies the predicate; when the budget was not exhausted it is also 1-minimal (removing any
// single element makes the predicate fail). Order is preserved: a plan's steps are a schedule,
// and a subsequence of a schedule is still a schedule.
//
// `shrinkPlan` applies it to a plan's steps against "the run still shows a violation of the same
// invariant", and `renderCounterexample` prints what is left as numbered steps.

import { CHECKERS, isInvariantName } from '../model/checkers/index.ts';
import type { History } from '../model/history.ts';
import type { Violation } from '../model/verdict.ts';
import type { OpSpec, Plan, PlanStep } from './plan.ts';
import type { RunResult } from './run-result.ts';

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
  const shrunk = await ddmin(plan.steps, predicate, { maxRuns });
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
  if (!violates(result, invariant)) throw new Error(`shrinkPlan: the shrunk plan of ${plan.scenario} seed ${plan.seed} no longer shows ${invariant}`);
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

/** Client calls in a history: every invoke by a controller process. */
export function countCalls(history: History): number {
  let count = 0;
  for (const event of history) if (event.type === 'invoke') count++;
  return count;
}

/**
 * Client operations in a history, as a reader counts them: every call, except that a run of
 * identical calls with identical answers by one process (a waiter polling a busy scope) is one
 * operation. These are the numbered rows of `renderCounterexample`.
 */
export function countOperations(history: History): number {
  let count = 0;
  for (const row of rowsOf(history)) if (row.calls > 0) count++;
  return count;
}

export interface Counterexample {
  /** The shortest prefix of the run's history that still shows the violation. */
  readonly history: History;
  /** The violations of the invariant that the prefix shows. */
  readonly violations: ReadonlyArray<Violation>;
  /** Events of the run after the prefix: they cannot have caused the violation. */
  readonly omittedEvents: number;
}

/**
 * A safety violation shown by a prefix of a history is shown by every extension of it, so what
 * happened after the last event a violation cites is not part of the counterexample. Each
 * candidate prefix is re-checked; liveness (not prefix-closed) keeps the whole history.
 */
export function counterexampleOf(result: RunResult, invariant: string): Counterexample {
  const whole: Counterexample = { history: result.history, violations: result.violations.filter((v) => v.invariant === invariant), omittedEvents: 0 };
  if (invariant === 'liveness' || !isInvariantName(invariant)) return whole;
  const cuts = [...new Set(whole.violations.map((v) => Math.max(-1, ...(v.events ?? [result.history.length - 1]))))].sort((a, b) => a - b);
  for (const cut of cuts) {
    if (cut < 0 || cut >= result.history.length - 1) continue;
    const prefix = result.history.slice(0, cut + 1);
    const verdict = CHECKERS[invariant](prefix);
    if (verdict.valid === false) return { history: prefix, violations: verdict.violations, omittedEvents: result.history.length - prefix.length };
  }
  return whole;
}

export interface RenderOptions {
  readonly invariant: string;
  /** Plan steps before shrinking, when the history comes from a shrunk plan. */
  readonly originalSteps?: number;
  /** Extra replay lines (for example the failure file's), printed after the run's own. */
  readonly replays?: ReadonlyArray<string>;
}

/**
 * The counterexample as numbered steps, one per client operation (time, process, operation,
 * result), with faults and ground truth interleaved where they happened, then the violations of
 * the invariant and the replay lines.
 */
export function renderCounterexample(result: RunResult, options: RenderOptions): string {
  const counterexample = counterexampleOf(result, options.invariant);
  const rows = rowsOf(counterexample.history);
  const operations = rows.filter((row) => row.calls > 0).length;
  const calls = countCalls(counterexample.history);
  const shrunkFrom = options.originalSteps === undefined ? '' : `, shrunk from ${options.originalSteps} plan steps`;
  const lines = [`counterexample: ${result.scenario} seed ${result.seed} on ${result.adapter} (${operations} operations, ${calls} calls${shrunkFrom})`];
  const width = Math.max(1, ...rows.map((row) => row.number.length));
  for (const row of rows) {
    const head = `${row.number.padStart(width)}  t=${String(row.time).padStart(6)}ms  ${row.process.padEnd(10)} ${row.what}`;
    lines.push(row.result === '' ? head : `${head}  →  ${row.result}`);
  }
  if (counterexample.omittedEvents > 0) lines.push(`   (${counterexample.omittedEvents} later events omitted: they come after the violation)`);
  for (const violation of counterexample.violations) {
    const events = violation.events === undefined ? '' : ` (events ${violation.events.join(', ')})`;
    lines.push(`violation [${violation.invariant}]: ${violation.message}${events}`);
  }
  lines.push(`replay: ${result.replay}`);
  for (const replay of options.replays ?? []) lines.push(`replay: ${replay}`);
  return lines.join('\n');
}

interface Row {
  readonly number: string;
  readonly time: number;
  readonly process: string;
  readonly what: string;
  readonly result: string;
  /** Calls folded into this row: 0 for a fault or ground-truth row. */
  readonly calls: number;
}

/**
 * One row per client operation (numbered), fault (`!`) or ground-truth record (`=`). A run of
 * identical calls with identical answers by one process (a waiter polling a busy scope) is
 * folded into one operation row.
 */
function rowsOf(history: History): ReadonlyArray<Row> {
  const rows: Array<Omit<Row, 'result' | 'calls'> & { result: string; calls: number; answer: string; until: number }> = [];
  const open = new Map<string, number>();
  for (const event of history) {
    if (event.type === 'invoke') {
      open.set(event.process, rows.length);
      rows.push({ number: '', time: event.time, process: event.process, what: describeInvoke(event.f, event.value), result: '(no reply)', calls: 1, answer: '', until: event.time });
    } else if (event.type === 'ok' || event.type === 'fail' || event.type === 'info') {
      const at = open.get(event.process);
      if (at === undefined) continue;
      open.delete(event.process);
      const row = rows[at]!;
      row.answer = `${event.type} ${describeValue(event.value)}`;
      row.until = event.time;
      const previous = at === rows.length - 1 ? rows[at - 1] : undefined;
      if (previous !== undefined && previous.calls > 0 && previous.process === row.process && previous.what === row.what && previous.answer === row.answer) {
        rows.pop();
        previous.calls += 1;
        previous.until = row.until;
      }
    } else {
      rows.push({ number: event.type === 'fault' ? '!' : '=', time: event.time, process: event.process, what: `${event.f} ${describeValue(event.value)}`, result: '', calls: 0, answer: '', until: event.time });
    }
  }
  let numbered = 0;
  return rows.map((row) => {
    if (row.calls === 0) return row;
    numbered += 1;
    const answered = row.answer === '' ? '(no reply)' : `${row.answer} @${row.until}ms`;
    const result = row.calls === 1 ? answered : `${row.answer} (×${row.calls} until @${row.until}ms)`;
    return { ...row, number: String(numbered), result };
  });
}

function describeInvoke(f: string, value: unknown): string {
  if (isRecord(value) && value['kind'] === f) {
    const { kind: _kind, ...rest } = value;
    return `${f} ${describeValue(rest)}`;
  }
  return `${f} ${describeValue(value)}`;
}

/** A compact one-line picture of a value: `kind` first, then `key=value` pairs. */
function describeValue(value: unknown): string {
  if (!isRecord(value)) return value === undefined ? '' : JSON.stringify(value);
  const parts: string[] = [];
  if (typeof value['kind'] === 'string') parts.push(value['kind']);
  for (const [key, field] of Object.entries(value)) {
    if (key === 'kind' || field === undefined) continue;
    parts.push(`${key}=${isRecord(field) || Array.isArray(field) ? JSON.stringify(field) : String(field)}`);
  }
  return parts.join(' ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
