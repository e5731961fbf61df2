// A failing run as a reader wants it: the shortest prefix of its history that still shows the
// violation, counted in calls and operations and printed as numbered steps (a process's polls
// answered as before, until a fault, are one row).

import { CHECKERS, isInvariantName } from '../model/checkers/index.ts';
import type { History } from '../model/history.ts';
import type { Violation } from '../model/verdict.ts';
import type { RunResult } from '../sim/run-result.ts';

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
  /** Per process and call, the row of its last answer: a poll answered as before is counted there. */
  const lastAsked = new Map<string, (typeof rows)[number]>();
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
      const key = `${row.process}\u0000${row.what}`;
      const previous = lastAsked.get(key);
      // The same call by the same process, answered as the last time it asked since the last
      // fault (a waiter's or a scheduler's poll, other processes' calls between): one row, with its count.
      if (previous !== undefined && previous.answer === row.answer) {
        row.calls = -1;
        previous.calls += 1;
        previous.until = row.until;
      } else {
        lastAsked.set(key, row);
      }
    } else {
      // A fault parts a process's polls: what it asked after the fault is a row of its own.
      if (event.type === 'fault') lastAsked.clear();
      rows.push({ number: event.type === 'fault' ? '!' : '=', time: event.time, process: event.process, what: `${event.f} ${describeValue(event.value)}`, result: '', calls: 0, answer: '', until: event.time });
    }
  }
  let numbered = 0;
  return rows.filter((row) => row.calls >= 0).map((row) => {
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
