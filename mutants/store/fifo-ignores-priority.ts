// fifo-ignores-priority — seed 000 §90–§92 ("FIFO", "Priority", "Starvation"), §294. The head of a
// queue is the oldest waiter whatever its priority: a plain FIFO where the rule book ranks by
// effective priority first, so an urgent waiter queues behind every routine one.

import { modelMutant } from './model-store.ts';
import { acquireWithHead, headBy } from './queue-order.ts';

const oldest = headBy((waiter, head) => waiter.seq < head.seq);

export const fifoIgnoresPriority = modelMutant('fifo-ignores-priority', ['Acquire'], (state, command, now, reference) => acquireWithHead(state, command, now, reference, oldest));
