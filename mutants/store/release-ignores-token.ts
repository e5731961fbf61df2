// release-ignores-token — seed 000 §33–§36 (renewal and release name the lease they end), §114
// ("Stale Old Holder: Fenced"), seed 002 (key-only release). Release deletes the scope's live
// lease whatever token and holder the caller names: a holder that slept through its expiry and
// calls Release late ends the lease its successor took meanwhile.

import { liveLease } from '../../model/state.ts';
import { modelMutant } from './model-store.ts';

export const releaseIgnoresToken = modelMutant('release-ignores-token', ['Release'], (state, command, now, reference) => {
  const live = liveLease(state, command.scope, now);
  return reference(state, live === null ? command : { ...command, holder: live.holder, token: live.token }, now);
});
