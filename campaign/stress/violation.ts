// A violation found in a stress history: the invariant, the scope (or key, or aggregate) it is
// about, the clients involved and the operations that show it.

import type { StressOp } from './history.ts';

export interface StressViolation {
  readonly invariant: string;
  /** The scope, `scope/aggregate` or idempotency key the violation is about. */
  readonly scope: string;
  readonly clients: ReadonlyArray<string>;
  /** Ids of the operations that show it, in the history. */
  readonly operations: ReadonlyArray<number>;
  readonly message: string;
}

export function violation(invariant: string, scope: string, ops: ReadonlyArray<StressOp>, message: string): StressViolation {
  return {
    invariant,
    scope,
    clients: [...new Set(ops.map((op) => op.client))],
    operations: ops.map((op) => op.id),
    message,
  };
}

/** An operation in a few words, for messages: `#12 c3 Acquire`. */
export function named(op: StressOp): string {
  return `#${op.id} ${op.client} ${op.command.kind}`;
}

/** "op A may have been applied before op B": A was invoked before B's reply came back. */
export function mayPrecede(a: StressOp, b: StressOp): boolean {
  return a.invokedAt < b.completedAt;
}
