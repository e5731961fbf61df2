// The history of a stress run: every command a client sent, with the real (wall-clock) times at
// which it was invoked and at which its reply came back, and what came back. Unlike a simulated
// run's history there is no single order of events: two operations whose intervals overlap ran
// at once, and the store may have applied them either way round. The checkers (checks/) use the
// outcomes' own store times where a store reports them, and real-time order (one operation
// completed before the other was invoked) where it does not.

import type { Command } from '../../model/commands.ts';
import type { Outcome } from '../../model/outcomes.ts';

/**
 * ok: the store answered with an outcome. fail: the store was unavailable, so the command was
 * certainly not applied. unknown: the reply was lost, so the command may or may not have been
 * applied. error: the store threw something the port does not define (a bug or a crash).
 */
export type OpStatus = 'ok' | 'fail' | 'unknown' | 'error';

export interface StressOp {
  /** Position in the history, in invocation order. */
  readonly id: number;
  /** The client that sent it (`c0`, `c1`, ..., or `setup`). */
  readonly client: string;
  readonly command: Command;
  /** Wall-clock ms (fractional) when the command was sent and when its reply came back. */
  readonly invokedAt: number;
  completedAt: number;
  status: OpStatus;
  outcome?: Outcome;
  /** The error message, for fail, unknown and error. */
  error?: string;
  /** An error: the store's answer broke the port contract (a finding, not an error of the run). */
  breach?: true;
}

export type StressHistory = ReadonlyArray<StressOp>;

/** Wall-clock milliseconds, monotonic within the process. */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Appends operations as clients invoke them. */
export class HistoryRecorder {
  private readonly ops: StressOp[] = [];

  invoke(client: string, command: Command): StressOp {
    const op: StressOp = { id: this.ops.length, client, command, invokedAt: wallNow(), completedAt: Number.NaN, status: 'unknown' };
    this.ops.push(op);
    return op;
  }

  complete(op: StressOp, status: OpStatus, outcome?: Outcome, error?: string): void {
    op.completedAt = wallNow();
    op.status = status;
    if (outcome !== undefined) op.outcome = outcome;
    if (error !== undefined) op.error = error;
  }

  history(): StressHistory {
    return this.ops;
  }
}

/** The command type of a kind (the reservation transitions share one type with four kinds). */
export type CommandOf<K extends Command['kind']> = Command extends infer C ? (C extends { readonly kind: infer CK } ? (K extends CK ? C : never) : never) : never;

/** The ok operations whose outcome has the given kind, with the command narrowed to its kind. */
export function okOps<K extends Command['kind']>(
  history: StressHistory,
  command: K,
  outcome: Outcome['kind'],
): Array<StressOp & { command: CommandOf<K> }> {
  return history.filter((op) => op.status === 'ok' && op.command.kind === command && op.outcome?.kind === outcome) as Array<
    StressOp & { command: CommandOf<K> }
  >;
}

/**
 * Operations of a kind that were answered ok or may have taken effect: an unknown outcome, or an
 * error the port does not define (nothing says the store did not apply it first).
 */
export function mayHaveApplied<K extends Command['kind']>(history: StressHistory, command: K): Array<StressOp & { command: CommandOf<K> }> {
  return history.filter((op) => op.command.kind === command && op.status !== 'fail') as Array<
    StressOp & { command: CommandOf<K> }
  >;
}

/** Groups items by a key, keeping their order. */
export function groupBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [item]);
    else group.push(item);
  }
  return groups;
}
