// Pairs a Jepsen-shaped history into operations (invoke + completion) and reads the values the
// checkers rely on. The pairing rule is Jepsen's: a process has at most one operation in flight,
// so a completion belongs to the latest earlier invoke of the same process.

import { assert } from '../assert.ts';
import type { Command, CommandKind } from '../commands.ts';
import type { FaultEvent, FaultKind, History, HistoryEvent, OpEvent, TruthEvent } from '../history.ts';
import type { Outcomes } from '../outcomes.ts';

export interface Operation {
  readonly process: string;
  readonly f: string;
  readonly invoke: OpEvent;
  /** The ok/fail/info event, or null when the operation was still in flight when the history ended. */
  readonly completion: OpEvent | null;
}

/** The command whose `kind` may be K (a reservation transition command covers four kinds). */
type CommandsByKind = { readonly [K in CommandKind]: Command extends infer C ? (C extends Command ? (K extends C['kind'] ? C : never) : never) : never };
export type CommandOf<K extends CommandKind> = CommandsByKind[K];

/** A store command of one kind, with its outcome when (and only when) it completed ok. */
export interface StoreOp<K extends CommandKind> {
  readonly op: Operation;
  readonly command: CommandOf<K>;
  readonly outcome: Outcomes[K] | null;
}

function isOpEvent(event: HistoryEvent): event is OpEvent {
  return event.type === 'invoke' || event.type === 'ok' || event.type === 'fail' || event.type === 'info';
}

export function isFault(event: HistoryEvent): event is FaultEvent {
  return event.type === 'fault';
}

export function isTruth(event: HistoryEvent): event is TruthEvent {
  return event.type === 'truth';
}

/**
 * Every checker pairs the same history; pairing once per history changes no result. The length
 * is kept too, so a history array that grew since (a simulator appending) is paired again.
 */
const paired = new WeakMap<History, { readonly length: number; readonly operations: ReadonlyArray<Operation> }>();

/**
 * Every operation of the history, in invoke order. A completion without an invoke in flight, or
 * with another `f` than its invoke, is a malformed history: the checker cannot decide, so it throws
 * (and `checkAll` turns that into 'unknown').
 */
export function pairOperations(history: History): ReadonlyArray<Operation> {
  const cached = paired.get(history);
  if (cached !== undefined && cached.length === history.length) return cached.operations;
  const operations: Array<{ process: string; f: string; invoke: OpEvent; completion: OpEvent | null }> = [];
  const inFlight = new Map<string, number>();
  // Messages are built only when an assertion fails: this loop runs once per event of every run.
  history.forEach((event, position) => {
    if (event.index !== position) assert(false, `event at position ${position} carries index ${event.index}`);
    if (!isOpEvent(event)) return;
    if (event.type === 'invoke') {
      inFlight.set(event.process, operations.length);
      operations.push({ process: event.process, f: event.f, invoke: event, completion: null });
      return;
    }
    const slot = inFlight.get(event.process);
    if (slot === undefined) assert(false, `#${event.index}: ${event.type} of ${event.f} by ${event.process} has no invoke in flight`);
    const operation = operations[slot];
    if (operation === undefined) assert(false, `operation slot ${slot} exists`);
    if (operation.f !== event.f) assert(false, `#${event.index}: ${event.f} completes ${operation.f} invoked at #${operation.invoke.index}`);
    operation.completion = event;
    inFlight.delete(event.process);
  });
  paired.set(history, { length: history.length, operations });
  return operations;
}

/** The last history index at which the operation may have taken effect (in flight: any time later). */
export function endOf(operation: Operation): number {
  return operation.completion?.index ?? Number.POSITIVE_INFINITY;
}

/** Indices of the events of an operation, for violation reports. */
export function indicesOf(operation: Operation): ReadonlyArray<number> {
  return operation.completion === null ? [operation.invoke.index] : [operation.invoke.index, operation.completion.index];
}

/**
 * The operations of each `f`, in invoke order, indexed once per paired history: checkers ask for
 * a few kinds each, and a scan of every operation per question made checking quadratic in spirit.
 */
const byFunction = new WeakMap<ReadonlyArray<Operation>, Map<string, Operation[]>>();

function operationsOf(operations: ReadonlyArray<Operation>, f: string): ReadonlyArray<Operation> {
  let index = byFunction.get(operations);
  if (index === undefined) {
    index = new Map();
    for (const op of operations) {
      const list = index.get(op.f);
      if (list === undefined) index.set(op.f, [op]);
      else list.push(op);
    }
    byFunction.set(operations, index);
  }
  return index.get(f) ?? [];
}

/** Typed store operations per paired history and kind: every checker reads the same ones. */
const typedOps = new WeakMap<ReadonlyArray<Operation>, Map<string, ReadonlyArray<StoreOp<CommandKind>>>>();

/** The operations of one store command kind, with the command and (when ok) the outcome typed. */
export function storeOps<K extends CommandKind>(operations: ReadonlyArray<Operation>, kind: K): ReadonlyArray<StoreOp<K>> {
  let cache = typedOps.get(operations);
  if (cache === undefined) {
    cache = new Map();
    typedOps.set(operations, cache);
  }
  const cached = cache.get(kind);
  if (cached !== undefined) return cached as ReadonlyArray<StoreOp<K>>;
  const result: Array<StoreOp<K>> = [];
  for (const op of operationsOf(operations, kind)) {
    const command: unknown = op.invoke.value;
    if (stringField(command, 'kind') !== kind) assert(false, `#${op.invoke.index}: ${kind} invoke carries a ${kind} command`);
    let outcome: unknown = null;
    if (op.completion?.type === 'ok') {
      const value: unknown = op.completion.value;
      if (stringField(value, 'kind') === undefined) assert(false, `#${op.completion.index}: ${kind} ok carries an outcome`);
      outcome = value;
    }
    result.push({ op, command, outcome } as StoreOp<K>);
  }
  cache.set(kind, result as unknown as ReadonlyArray<StoreOp<CommandKind>>);
  return result;
}

export type EffectKnowledge = 'applied' | 'not-applied' | 'unknown';

/**
 * What an `effect` attempt tells about the provider: ok `{ applied: boolean }` is known; `fail`
 * is definitely not applied; `info`, an ok with `timedOut: true` or without `applied`, and an
 * attempt still in flight are unknown.
 */
export function effectOutcome(op: Operation): EffectKnowledge {
  const completion = op.completion;
  if (completion === null || completion.type === 'info') return 'unknown';
  if (completion.type === 'fail') return 'not-applied';
  if (booleanField(completion.value, 'timedOut') === true) return 'unknown';
  const applied = booleanField(completion.value, 'applied');
  if (applied === undefined) return 'unknown';
  return applied ? 'applied' : 'not-applied';
}

/** The controller-level operations named `f` (`effect`, `inspect`, `cancel`, `wait`, ...). */
export function controllerOps(operations: ReadonlyArray<Operation>, f: string): ReadonlyArray<Operation> {
  return operationsOf(operations, f);
}

export function faultsOf(history: History, kinds: ReadonlyArray<FaultKind>): ReadonlyArray<FaultEvent> {
  return history.filter((event): event is FaultEvent => isFault(event) && kinds.includes(event.f));
}

/** Faults strictly between two history indices, named for messages ("across db-restore #12"). */
export function faultsBetween(history: History, from: number, to: number): string {
  const names = history
    .slice(Math.max(0, from + 1), Math.max(0, to))
    .filter(isFault)
    .map((fault) => `${fault.f} #${fault.index}`);
  return names.length === 0 ? '' : ` across ${names.join(', ')}`;
}

type Fields = Readonly<Record<string, unknown>>;

export function asFields(value: unknown): Fields | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : undefined;
}

export function stringField(value: unknown, name: string): string | undefined {
  const field = asFields(value)?.[name];
  return typeof field === 'string' ? field : undefined;
}

export function numberField(value: unknown, name: string): number | undefined {
  const field = asFields(value)?.[name];
  return typeof field === 'number' && Number.isFinite(field) ? field : undefined;
}

export function booleanField(value: unknown, name: string): boolean | undefined {
  const field = asFields(value)?.[name];
  return typeof field === 'boolean' ? field : undefined;
}

/** A required string field of a controller op or fault value; its absence makes the history undecidable. */
export function requireString(value: unknown, name: string, where: number): string {
  const field = stringField(value, name);
  if (field === undefined) assert(false, `#${where}: value has no string field '${name}'`);
  return field;
}

export function requireNumber(value: unknown, name: string, where: number): number {
  const field = numberField(value, name);
  if (field === undefined) assert(false, `#${where}: value has no numeric field '${name}'`);
  return field;
}
