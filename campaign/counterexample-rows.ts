// The steps of a counterexample as a reader counts them: one row per client operation, fault
// (`!`) or ground-truth record (`=`). A run of identical calls with identical answers by one
// process (a waiter polling a busy scope) is folded into one operation row. Each row keeps the
// history events it covers, so the step a violation names can be found, and the store time its
// call ran at. The text counterexample (counterexample.ts) and the run report (reports/) read them.

import { COMMAND_KINDS } from '../model/outcome-kinds.ts';
import type { History } from '../model/history.ts';
import type { Violation } from '../model/verdict.ts';
import type { StoreTime } from '../sim/run-result.ts';

export interface StepRow {
  readonly kind: 'operation' | 'fault' | 'truth';
  /** The operation's number from 1, `!` for a fault, `=` for ground truth. */
  readonly number: string;
  /** When the call was made (or the fault or record happened), in simulated ms. */
  readonly time: number;
  /**
   * When the store ran the call: undefined for a row that is no store call, or when the run does
   * not say (read back from a file); null for a store call that never reached the store.
   */
  readonly storeTime: StoreTime | null | undefined;
  readonly process: string;
  readonly what: string;
  /** The answer, `(no reply)`, or '' for a fault or ground-truth row. */
  readonly result: string;
  /** The fencing token the row is about (the call's, or its answer's lease), when there is one. */
  readonly token: number | undefined;
  /** History indices of the events the row covers (every call folded into it). */
  readonly events: ReadonlyArray<number>;
}

const STORE_CALLS: ReadonlySet<string> = new Set(COMMAND_KINDS);

interface OpenRow {
  kind: StepRow['kind'];
  time: number;
  storeTime: StepRow['storeTime'];
  process: string;
  what: string;
  token: number | undefined;
  events: number[];
  answer: string;
  until: number;
  /** Calls folded into this row: 0 for a fault or ground-truth row, -1 once folded into another. */
  calls: number;
}

export function stepRows(history: History, storeTimes?: Readonly<Record<number, StoreTime>>): ReadonlyArray<StepRow> {
  const rows: OpenRow[] = [];
  const open = new Map<string, OpenRow>();
  /** Per process and call, the row of its last answer: a poll answered as before is counted there. */
  const lastAsked = new Map<string, OpenRow>();
  for (const event of history) {
    if (event.type === 'invoke') {
      const storeTime = !STORE_CALLS.has(event.f) || storeTimes === undefined ? undefined : (storeTimes[event.index] ?? null);
      const row: OpenRow = { kind: 'operation', time: event.time, storeTime, process: event.process, what: describeInvoke(event.f, event.value), token: ownToken(event.value), events: [event.index], answer: '', until: event.time, calls: 1 };
      open.set(event.process, row);
      rows.push(row);
    } else if (event.type === 'ok' || event.type === 'fail' || event.type === 'info') {
      const row = open.get(event.process);
      if (row === undefined) continue;
      open.delete(event.process);
      row.answer = `${event.type} ${describeValue(event.value)}`;
      row.until = event.time;
      row.events.push(event.index);
      row.token = grantedToken(event.value) ?? row.token;
      const key = `${row.process}\u0000${row.what}`;
      const previous = lastAsked.get(key);
      // The same call by the same process, answered as the last time it asked since the last
      // fault (a waiter's or a scheduler's poll, other processes' calls between): one row, with its count.
      if (previous !== undefined && previous.answer === row.answer) {
        row.calls = -1;
        previous.calls += 1;
        previous.until = row.until;
        previous.events.push(...row.events);
      } else {
        lastAsked.set(key, row);
      }
    } else {
      // A fault parts a process's polls: what it asked after the fault is a row of its own.
      if (event.type === 'fault') lastAsked.clear();
      rows.push({ kind: event.type, time: event.time, storeTime: undefined, process: event.process, what: `${event.f} ${describeValue(event.value)}`, token: ownToken(event.value), events: [event.index], answer: '', until: event.time, calls: 0 });
    }
  }
  let numbered = 0;
  return rows.filter((row) => row.calls >= 0).map(({ kind, time, storeTime, process, what, token, events, answer, until, calls }) => {
    const base = { kind, time, storeTime, process, what, token, events };
    if (calls === 0) return { ...base, number: kind === 'fault' ? '!' : '=', result: '' };
    numbered += 1;
    const answered = answer === '' ? '(no reply)' : `${answer} @${until}ms`;
    return { ...base, number: String(numbered), result: calls === 1 ? answered : `${answer} (×${calls} until @${until}ms)` };
  });
}

/**
 * The step a violation names: the row holding the latest event it cites (the one that broke the
 * rule, as the lease timeline draws it), or undefined when it cites none of these rows' events.
 */
export function failingStep(rows: ReadonlyArray<StepRow>, violation: Violation | undefined): StepRow | undefined {
  const events = violation?.events ?? [];
  if (events.length === 0) return undefined;
  const last = Math.max(...events);
  return rows.find((row) => row.events.includes(last));
}

/** A store time as a reader reads it: `734ms`, `734–740ms` while store time passed, `-` when the call never reached the store. */
export function storeTimeText(time: StoreTime | null | undefined): string {
  if (time === undefined) return '';
  if (time === null) return '-';
  return typeof time === 'number' ? `${time}ms` : `${time[0]}–${time[1]}ms`;
}

/** The token a call or record carries itself (a write's, a release's, a renewal's expected token). */
function ownToken(value: unknown): number | undefined {
  if (!isRecord(value)) return undefined;
  return [value['token'], value['expectedToken']].find((t): t is number => typeof t === 'number');
}

/** The token of a lease an answer grants (not the token a Busy answer names: that is another holder's). */
function grantedToken(value: unknown): number | undefined {
  const lease = isRecord(value) ? value['lease'] : undefined;
  return isRecord(lease) && typeof lease['token'] === 'number' ? lease['token'] : undefined;
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
