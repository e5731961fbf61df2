// key-only-force-release — seed 002 (PR #53, "Why staged": "key-only ForceReleaseLock cannot
// bind the force to the lease observed at conflict time"), seed 000 §200–§204, §290. The force
// release deletes whatever lease the scope has now: the epoch and expiry the operator observed
// are read and ignored, so a force aimed at a stuck holder destroys the newer holder's lease that replaced it.

import { liveLease } from '../../model/state.ts';
import { modelMutant } from './model-store.ts';

export const keyOnlyForceRelease = modelMutant('key-only-force-release', ['ForceRelease'], (state, command, now, reference) => {
  const live = liveLease(state, command.scope, now);
  return reference(state, live === null ? command : { ...command, expectedToken: live.token, expectedExpiresAt: live.expiresAt }, now);
});
