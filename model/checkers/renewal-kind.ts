// What a granted renewal did in the run, from the history's `renewal` record (model/history.ts):
// it extended the lease (the reference semantics) unless the store declared that its renewals only
// confirm, in which case a Renewed vouches for no more of the lease than its grant did.

import type { History } from '../history.ts';
import { isTruth } from './operations.ts';

/** Whether the store of the run declared renewals that confirm without extending. */
export function renewalsOnlyConfirm(history: History): boolean {
  for (const event of history) {
    if (isTruth(event) && event.f === 'renewal') return event.value.kind === 'confirms';
  }
  return false;
}
