// any-waiter-acquires — seed 000 §86–§92 (FIFO, priority, starvation), §294. The queue only checks
// that the caller is queued on the scope, not that it is the head: whichever waiter asks first
// when the scope frees takes it, so a waiter that happens to poll sooner overtakes earlier ones.

import { modelMutant } from './model-store.ts';
import { acquireWithHead } from './queue-order.ts';

export const anyWaiterAcquires = modelMutant('any-waiter-acquires', ['Acquire'], (state, command, now, reference) =>
  acquireWithHead(state, command, now, reference, (queue, c) => queue.find((w) => w.waiterId === c.waiterId) ?? null));
