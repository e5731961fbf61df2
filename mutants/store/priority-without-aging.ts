// priority-without-aging — seed 000 §91–§92 ("Priority", "Starvation": aging), §294 fairness
// test ("no waiter starves"). The head is chosen by explicit priority alone, FIFO among equals:
// the waiting time never raises a waiter's rank, so a steady stream of higher-priority
// newcomers starves an old low-priority waiter.

import { modelMutant } from './model-store.ts';
import { acquireWithHead, headBy } from './queue-order.ts';

const byPriorityOnly = headBy((waiter, head) => waiter.priority > head.priority || (waiter.priority === head.priority && waiter.seq < head.seq));

export const priorityWithoutAging = modelMutant('priority-without-aging', ['Acquire'], (state, command, now, reference) => acquireWithHead(state, command, now, reference, byPriorityOnly));
