// priority-without-aging — seed 000 §91–§92 ("Priority", "Starvation": aging), §294 fairness
// test ("no waiter starves"). The head is chosen by explicit priority alone, FIFO among equals:
// the waiting time never raises a waiter's rank, so a steady stream of higher-priority
// newcomers starves an old low-priority waiter.

import type { Waiter } from '../../model/outcomes.ts';
import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';
import { acquireWithHead } from './queue-order.ts';

function byPriorityOnly(queue: ReadonlyArray<Waiter>): Waiter | null {
  let head: Waiter | null = null;
  for (const waiter of queue) if (head === null || waiter.priority > head.priority || (waiter.priority === head.priority && waiter.seq < head.seq)) head = waiter;
  return head;
}

export const priorityWithoutAging: Mutant = {
  name: 'priority-without-aging',
  bug: 'the head of a queue is chosen by explicit priority alone: waiting time never ages a waiter',
  source: '000 §91–§92, §294',
  rule: 'Leases: effective priority = priority + floor((now − enqueuedAt) / AGING_STEP_MS)',
  invariants: ['liveness'],
  scenarios: ['fairness-starvation'],
  store: () => modelMutantStore('priority-without-aging', ['Acquire'], (state, command, now, reference) => acquireWithHead(state, command, now, reference, byPriorityOnly)),
};
