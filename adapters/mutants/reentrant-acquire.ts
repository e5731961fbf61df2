// reentrant-acquire — seed 000 §21–§24 (one owner, a fresh token per ownership), §279 ("only one
// holder"). Acquire treats a request from the holder of the live lease as re-entrant and grants
// it again under a new token, where the rule book answers Busy "also for the same holder": the
// same process now holds two leases of one scope, and its two jobs run at once.

import { mapWithout } from '../../model/persistent.ts';
import { liveLease } from '../../model/state.ts';
import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';

export const reentrantAcquire: Mutant = {
  name: 'reentrant-acquire',
  bug: 'Acquire by the holder of the live lease grants a second lease (a new token) instead of Busy',
  source: '000 §21–§24, §279',
  rule: 'Leases: Acquire step 4 (live lease → Busy, also for the same holder)',
  invariants: ['lease-exclusive'],
  scenarios: ['three-node-failover', 'scheduler-epoch', 'stale-leader-epoch'],
  store: () =>
    modelMutantStore('reentrant-acquire', ['Acquire'], (state, command, now, reference) => {
      const live = liveLease(state, command.scope, now);
      if (live === null || live.holder !== command.holder) return reference(state, command, now);
      // The caller's own live row does not count as taken: it is overwritten by the new grant.
      return reference({ ...state, leases: mapWithout(state.leases, command.scope) }, command, now);
    }),
};
