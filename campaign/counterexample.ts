// A failing run as a reader wants it: the shortest prefix of its history that still shows the
// violation, counted in calls and operations and printed as numbered steps (a process's polls
// answered as before, until a fault, are one row: counterexample-rows.ts), the failing one marked.

import { CHECKERS, isInvariantName } from '../model/checkers/index.ts';
import type { History } from '../model/history.ts';
import type { Violation } from '../model/verdict.ts';
import type { RunResult } from '../sim/run-result.ts';
import { failingStep, stepRows, storeTimeText } from './counterexample-rows.ts';

/** Client calls in a history: every invoke by a controller process. */
export function countCalls(history: History): number {
  let count = 0;
  for (const event of history) if (event.type === 'invoke') count++;
  return count;
}

/**
 * Client operations in a history, as a reader counts them: every call, except that a call a
 * process repeats with the same answer as the last time it made it (a waiter polling a busy scope,
 * a leader listing an unchanged jobs table), with no fault between, counts once, whatever other
 * processes did meanwhile. These are the numbered rows of `renderCounterexample`.
 */
export function countOperations(history: History): number {
  let count = 0;
  for (const row of stepRows(history)) if (row.kind === 'operation') count++;
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
 * candidate prefix is re-checked; liveness (not prefix-closed) keeps the whole history. A rule
 * about what is still open when the history ends (outcome-at-return's unreported runs) judges a
 * prefix as if it ended there; a cut at the last event a violation cites does not separate a
 * handler's return from its run's classification unless a renewal drains between them, which that
 * rule waits for, so the prefix shows no run unreported that the whole history reports.
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
 * The counterexample as numbered steps, one per client operation (time, the store time its call
 * ran at when the run says, process, operation, result), with faults and ground truth interleaved
 * where they happened and the step the first violation names marked, then the violations of the
 * invariant and the replay lines.
 */
export function renderCounterexample(result: RunResult, options: RenderOptions): string {
  const counterexample = counterexampleOf(result, options.invariant);
  const rows = stepRows(counterexample.history, result.storeTimes);
  const operations = rows.filter((row) => row.kind === 'operation').length;
  const calls = countCalls(counterexample.history);
  const shrunkFrom = options.originalSteps === undefined ? '' : `, shrunk from ${options.originalSteps} plan steps`;
  const lines = [`counterexample: ${result.scenario} seed ${result.seed} on ${result.adapter} (${operations} operations, ${calls} calls${shrunkFrom})`];
  const first = counterexample.violations[0];
  const failing = failingStep(rows, first);
  const width = Math.max(1, ...rows.map((row) => row.number.length));
  const storeWidth = Math.max(0, ...rows.map((row) => storeTimeText(row.storeTime).length));
  for (const row of rows) {
    // The store time column only when the run recorded store times (a run read from a file has none).
    const store = result.storeTimes === undefined ? '' : `${row.storeTime === undefined ? ' '.repeat(6) : 'store '}${storeTimeText(row.storeTime).padStart(storeWidth)}  `;
    const head = `${row.number.padStart(width)}  t=${String(row.time).padStart(6)}ms  ${store}${row.process.padEnd(10)} ${row.what}`;
    const line = row.result === '' ? head : `${head}  →  ${row.result}`;
    lines.push(row === failing ? `${line}  ◀ failing step: ${first!.invariant}` : line);
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
