// Waiting instead of spinning (§86–§92, §198–§199): a FIFO queue per scope with explicit priority
// and aging, so a low-priority waiter's effective priority eventually passes any newcomer's and
// no waiter starves. A wait timeout is a CancelWait; it never touches the lease.

import { assert } from './assert.ts';
import type { CancelWaitCommand, EnqueueCommand } from './commands.ts';
import { AGING_STEP_MS } from './constants.ts';
import type { CancelWaitResult, EnqueueResult, Waiter } from './outcomes.ts';
import { mapWith, mapWithout } from './persistent.ts';
import type { ModelState, Transition } from './state.ts';
import { isValidId, isValidPriority } from './validation.ts';

function effectivePriority(waiter: Waiter, now: number): number {
  return waiter.priority + Math.floor((now - waiter.enqueuedAt) / AGING_STEP_MS);
}

/** True when `a` goes before `b`: greater effective priority, then the smaller seq. */
function goesBefore(a: Waiter, b: Waiter, now: number): boolean {
  const pa = effectivePriority(a, now);
  const pb = effectivePriority(b, now);
  return pa !== pb ? pa > pb : a.seq < b.seq;
}

export function queueOf(state: ModelState, scope: string): ReadonlyArray<Waiter> {
  return state.queues.get(scope) ?? [];
}

export function headOf(queue: ReadonlyArray<Waiter>, now: number): Waiter | null {
  let head: Waiter | null = null;
  for (const waiter of queue) if (head === null || goesBefore(waiter, head, now)) head = waiter;
  return head;
}

/** 1-based rank of `waiter` in head order. */
function rankOf(queue: ReadonlyArray<Waiter>, waiter: Waiter, now: number): number {
  let ahead = 0;
  for (const other of queue) if (other !== waiter && goesBefore(other, waiter, now)) ahead++;
  return ahead + 1;
}

/** Removes a queued waiter; the caller has checked that it is queued on `scope`. */
export function dequeue(state: ModelState, scope: string, waiterId: string): ModelState {
  const queue = queueOf(state, scope);
  const remaining = queue.filter((waiter) => waiter.waiterId !== waiterId);
  assert(remaining.length === queue.length - 1, 'exactly one waiter leaves the queue');
  return {
    ...state,
    queues: remaining.length === 0 ? mapWithout(state.queues, scope) : mapWith(state.queues, scope, remaining),
    waiterScopes: mapWithout(state.waiterScopes, waiterId),
  };
}

export function enqueue(state: ModelState, command: EnqueueCommand, now: number): Transition<EnqueueResult> {
  const valid =
    isValidId(command.scope) &&
    isValidId(command.waiterId) &&
    isValidId(command.holder) &&
    isValidPriority(command.priority) &&
    !state.waiterScopes.has(command.waiterId);
  if (!valid) return { state, outcome: { kind: 'Rejected', reason: 'invalid-argument' } };

  const seq = state.waiterSeq + 1;
  const waiter: Waiter = {
    scope: command.scope,
    waiterId: command.waiterId,
    holder: command.holder,
    priority: command.priority,
    enqueuedAt: now,
    seq,
  };
  const queue = [...queueOf(state, command.scope), waiter];
  const position = rankOf(queue, waiter, now);
  assert(position >= 1 && position <= queue.length, 'a new waiter ranks inside its queue');
  return {
    state: {
      ...state,
      queues: mapWith(state.queues, command.scope, queue),
      waiterScopes: mapWith(state.waiterScopes, command.waiterId, command.scope),
      waiterSeq: seq,
    },
    outcome: { kind: 'Enqueued', position },
  };
}

export function cancelWait(state: ModelState, command: CancelWaitCommand): Transition<CancelWaitResult> {
  if (state.waiterScopes.get(command.waiterId) !== command.scope) return { state, outcome: { kind: 'NotWaiting' } };
  return { state: dequeue(state, command.scope, command.waiterId), outcome: { kind: 'WaitCancelled' } };
}
