// any-waiter-acquires — seed 000 §86–§92 (FIFO, priority, starvation), §294. The queue only checks
// that the caller is queued on the scope, not that it is the head: whichever waiter asks first
// when the scope frees takes it, so a waiter that happens to poll sooner overtakes earlier ones.

import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';
import { acquireWithHead } from './queue-order.ts';

export const anyWaiterAcquires: Mutant = {
  name: 'any-waiter-acquires',
  bug: 'any queued waiter that asks takes a free scope, not only the head of the queue',
  source: '000 §86–§92, §294',
  rule: 'Leases: Acquire step 5 (a queued waiter that is not the head → Rejected not-head-of-queue)',
  invariants: ['liveness'],
  scenarios: ['fairness-starvation'],
  store: () =>
    modelMutantStore('any-waiter-acquires', ['Acquire'], (state, command, now, reference) =>
      acquireWithHead(state, command, now, reference, (queue, c) => queue.find((w) => w.waiterId === c.waiterId) ?? null),
    ),
};
