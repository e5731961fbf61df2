// The protected writes the history shows as accepted: Mutate answered Accepted, and the ground
// truth of the resource (`mutation-accepted`) and of the provider (`effect-applied`). Several
// invariants (one owner per epoch, restore invalidation) judge the same set.

import type { History } from '../history.ts';
import { isTruth, numberField, pairOperations, stringField, storeOps, type Operation } from './operations.ts';
import type { Placed } from './real-time-order.ts';

export interface AcceptedWrite {
  readonly what: 'Mutate Accepted' | 'mutation-accepted' | 'effect-applied';
  readonly holder: string;
  /** Set for provider effects, so a checker can find the `effect` call that caused it. */
  readonly intentId?: string;
}

/** Accepted writes keyed by scope, valued by token, placed where they may have taken effect. */
/** Accepted writes per paired history: several checkers judge the same set. */
const cache = new WeakMap<ReadonlyArray<Operation>, ReadonlyArray<Placed<AcceptedWrite>>>();

export function acceptedWrites(history: History): ReadonlyArray<Placed<AcceptedWrite>> {
  const operations = pairOperations(history);
  const known = cache.get(operations);
  if (known !== undefined) return known;
  const writes: Array<Placed<AcceptedWrite>> = [];
  cache.set(operations, writes);
  for (const { op, command, outcome } of storeOps(operations, 'Mutate')) {
    if (outcome?.kind !== 'Accepted' || op.completion === null) continue;
    writes.push({ key: command.scope, start: op.invoke.index, end: op.completion.index, value: outcome.token, item: { what: 'Mutate Accepted', holder: command.holder } });
  }
  for (const event of history) {
    // Fenced writes only: a handler's work step is unfenced and judged by work-within-lease.
    if (!isTruth(event) || (event.f !== 'effect-applied' && event.f !== 'mutation-accepted')) continue;
    const scope = stringField(event.value, 'scope');
    const token = numberField(event.value, 'token');
    // A truth record without scope and token is not fenced and has no owner to judge.
    if (scope === undefined || token === undefined) continue;
    const holder = stringField(event.value, 'holder') ?? '(unnamed)';
    const intentId = stringField(event.value, 'intentId');
    const item: AcceptedWrite = intentId === undefined ? { what: event.f, holder } : { what: event.f, holder, intentId };
    writes.push({ key: scope, start: event.index, end: event.index, value: token, item });
  }
  return writes;
}
