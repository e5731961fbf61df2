// fifo-ignores-priority — seed 000 §90–§92 ("FIFO", "Priority", "Starvation"), §294. The head of a
// queue is the oldest waiter whatever its priority: a plain FIFO where the rule book ranks by
// effective priority first, so an urgent waiter queues behind every routine one.

import type { Waiter } from '../../model/outcomes.ts';
import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';
import { acquireWithHead } from './queue-order.ts';

function oldest(queue: ReadonlyArray<Waiter>): Waiter | null {
  let head: Waiter | null = null;
  for (const waiter of queue) if (head === null || waiter.seq < head.seq) head = waiter;
  return head;
}

export const fifoIgnoresPriority: Mutant = {
  name: 'fifo-ignores-priority',
  bug: 'the head of a queue is the oldest waiter; explicit priority (and so aging) is ignored',
  source: '000 §90–§92, §294',
  rule: 'Leases: head of a queue (greatest effective priority, then smaller seq)',
  invariants: ['liveness'],
  scenarios: ['fairness-starvation'],
  store: () => modelMutantStore('fifo-ignores-priority', ['Acquire'], (state, command, now, reference) => acquireWithHead(state, command, now, reference, oldest)),
};
