// The real-time half of the token checks (fencing-monotonic, accepted-writes): tokens of a scope
// only increase, so an operation invoked after another's reply came back never carries an older
// token. One sweep: by invocation against completion.

import type { StressOp } from '../history.ts';

interface Tokened {
  readonly op: StressOp;
  readonly token: number;
}

/**
 * Each of `items` whose token is older than the newest token of an item that had completed before
 * it was invoked, with that item: `[before, item]`, in invocation order.
 */
export function olderTokenAfter<T extends Tokened>(items: ReadonlyArray<T>): Array<readonly [before: T, item: T]> {
  const byInvoke = [...items].sort((a, b) => a.op.invokedAt - b.op.invokedAt);
  const byComplete = [...items].sort((a, b) => a.op.completedAt - b.op.completedAt);
  const found: Array<readonly [T, T]> = [];
  let done = 0;
  let before: T | null = null;
  for (const item of byInvoke) {
    while (done < byComplete.length && byComplete[done]!.op.completedAt < item.op.invokedAt) {
      const finished = byComplete[done++]!;
      if (before === null || finished.token > before.token) before = finished;
    }
    if (before !== null && item.token < before.token) found.push([before, item]);
  }
  return found;
}
