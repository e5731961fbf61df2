// release-ignores-token — seed 000 §33–§36 (renewal and release name the lease they end), §114
// ("Stale Old Holder: Fenced"), seed 002 (key-only release). Release deletes the scope's live
// lease whatever token and holder the caller names: a holder that slept through its expiry and
// calls Release late ends the lease its successor took meanwhile.

import { liveLease } from '../../model/state.ts';
import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';

export const releaseIgnoresToken: Mutant = {
  name: 'release-ignores-token',
  bug: 'Release ends the scope’s live lease whatever token and holder the caller presents',
  source: '000 §33–§36, §114; 002 key-only release',
  rule: 'Leases: Release (live lease with that token and holder → Released, else Stale)',
  invariants: ['lease-exclusive'],
  scenarios: ['stalled-refresh', 'paused-holder-expiry', 'stale-holder', 'standalone-coordination', 'standard-mix'],
  store: () =>
    modelMutantStore('release-ignores-token', ['Release'], (state, command, now, reference) => {
      const live = liveLease(state, command.scope, now);
      return reference(state, live === null ? command : { ...command, holder: live.holder, token: live.token }, now);
    }),
};
