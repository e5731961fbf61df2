// session-reentrant-acquire — seed 000 §21–§24 (one owner, a fresh token per ownership), §72–§74 (a
// session is no proof of ownership), §279. The store takes a scope's lease under a session
// advisory lock, which PostgreSQL grants again to the session that already holds it: an Acquire
// from the process that took the live lease is granted under a new token, whatever holder it
// names, where the rule book answers Busy. The answer depends on which process calls: a call that
// names no process, or another process, is answered Busy as the reference answers it, so only the
// calling process shows the bug.

import { mapWithout } from '../../model/persistent.ts';
import { liveLease } from '../../model/state.ts';
import { modelSessionMutant } from './model-store.ts';

export const sessionReentrantAcquire = modelSessionMutant('session-reentrant-acquire', ['Acquire'], (state, command, now, reference, caller) => {
  const live = liveLease(state, command.scope, now);
  if (live === null || !caller.took(live)) return reference(state, command, now);
  // The session's own live row does not count as taken: it is overwritten by the new grant.
  return reference({ ...state, leases: mapWithout(state.leases, command.scope) }, command, now);
});
