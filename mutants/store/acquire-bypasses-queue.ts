// acquire-bypasses-queue — seed 000 §86–§90 ("Waiter", "FIFO"), §294 fairness test. A caller that
// did not wait takes a free scope although others are queued for it: the queue is only consulted
// for callers that present a waiter id, so a newcomer that polls at the right moment jumps it.

import { mapWith, mapWithout } from '../../model/persistent.ts';
import { queueOf } from '../../model/wait-queue.ts';
import { modelMutant } from './model-store.ts';

export const acquireBypassesQueue = modelMutant('acquire-bypasses-queue', ['Acquire'], (state, command, now, reference) => {
  const queue = queueOf(state, command.scope);
  if (command.waiterId !== undefined || queue.length === 0) return reference(state, command, now);
  // The queue is invisible to this caller; it is put back untouched afterwards.
  const granted = reference({ ...state, queues: mapWithout(state.queues, command.scope) }, command, now);
  return { state: { ...granted.state, queues: mapWith(granted.state.queues, command.scope, queue) }, outcome: granted.outcome };
});
