// reentrant-acquire — seed 000 §21–§24 (one owner, a fresh token per ownership), §279 ("only one
// holder"). Acquire treats a request from the holder of the live lease as re-entrant and grants
// it again under a new token, where the rule book answers Busy "also for the same holder": the
// same process now holds two leases of one scope, and its two jobs run at once.

import { mapWithout } from '../../model/persistent.ts';
import { liveLease } from '../../model/state.ts';
import { modelMutant } from './model-store.ts';

export const reentrantAcquire = modelMutant('reentrant-acquire', ['Acquire'], (state, command, now, reference) => {
  const live = liveLease(state, command.scope, now);
  if (live === null || live.holder !== command.holder) return reference(state, command, now);
  // The caller's own live row does not count as taken: it is overwritten by the new grant.
  return reference({ ...state, leases: mapWithout(state.leases, command.scope) }, command, now);
});
