// The queue step of Acquire (model/SEMANTICS.md "Leases", step 5) with another head-selection
// rule: the mutants that break the order of waiting (§86–§92) share it. `chooseHead` names the
// waiter the broken store lets through (`headBy` makes one from another ranking); the reference model then grants exactly as it would to
// its own head, so every other step (guard, ttl, block, live lease, token) is the correct one.

import type { AcquireCommand } from '../../model/commands.ts';
import type { AcquireResult, Waiter } from '../../model/outcomes.ts';
import { mapWith } from '../../model/persistent.ts';
import { isBlocked, liveLease, type ModelState, type Transition } from '../../model/state.ts';
import { queueOf } from '../../model/wait-queue.ts';
import type { ReferenceStep } from './model-store.ts';

/** A priority no rule-book waiter can have: the chosen waiter becomes the reference model's head. */
const FIRST = Number.MAX_SAFE_INTEGER / 2;

/** A head-selection rule: the waiter of the queue that no other waiter goes `before` (the first one on a tie). */
export function headBy(before: (waiter: Waiter, head: Waiter) => boolean): (queue: ReadonlyArray<Waiter>) => Waiter | null {
  return (queue) => {
    let head: Waiter | null = null;
    for (const waiter of queue) if (head === null || before(waiter, head)) head = waiter;
    return head;
  };
}

/**
 * Acquire where the queue lets `chooseHead(queue, command, now)` through instead of the
 * rule-book head. When the caller is that waiter it is granted (and dequeued); a queued caller
 * that is not is refused `not-head-of-queue`; everything else follows the reference.
 */
export function acquireWithHead(
  state: ModelState,
  command: AcquireCommand,
  now: number,
  reference: ReferenceStep,
  chooseHead: (queue: ReadonlyArray<Waiter>, command: AcquireCommand, now: number) => Waiter | null,
): Transition<AcquireResult> {
  const queue = queueOf(state, command.scope);
  const waiterId = command.waiterId;
  const decides = queue.length > 0 && waiterId !== undefined && state.waiterScopes.get(waiterId) === command.scope && !isBlocked(state, command.scope) && liveLease(state, command.scope, now) === null;
  if (!decides) return reference(state, command, now);
  const chosen = chooseHead(queue, command, now);
  if (chosen === null || chosen.waiterId !== waiterId) {
    // Guard, ttl and ids are still the reference's: only the queue's answer differs.
    const checked = reference(state, { ...command, waiterId: undefined } as AcquireCommand, now);
    return checked.outcome.kind === 'Rejected' && checked.outcome.reason === 'not-head-of-queue' ? checked : reference(state, command, now);
  }
  const promoted = queue.map((w) => (w.waiterId === waiterId ? { ...w, priority: FIRST } : w));
  return reference({ ...state, queues: mapWith(state.queues, command.scope, promoted) }, command, now);
}
