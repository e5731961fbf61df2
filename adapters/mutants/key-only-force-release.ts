// key-only-force-release — seed 002 (PR #53, "Why staged": "key-only ForceReleaseLock cannot
// bind the force to the lease observed at conflict time"), seed 000 §200–§204, §290. The force
// release deletes whatever lease the scope has now: the epoch and expiry the operator observed
// are read and ignored, so a force aimed at a stuck holder destroys the newer holder's lease that replaced it.

import { liveLease } from '../../model/state.ts';
import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';

export const keyOnlyForceRelease: Mutant = {
  name: 'key-only-force-release',
  bug: 'ForceRelease ignores expectedToken and expectedExpiresAt and deletes the scope’s current lease, even a newer holder’s',
  source: '002 PR #53 (key-only ForceReleaseLock); 000 §200–§204, §290',
  rule: 'Leases: ForceRelease (live lease with exactly expectedToken; a key-only release does not exist)',
  invariants: ['force-release-audited', 'force-release-judged'],
  scenarios: ['force-release-stalled-holders'],
  store: () =>
    modelMutantStore('key-only-force-release', ['ForceRelease'], (state, command, now, reference) => {
      const live = liveLease(state, command.scope, now);
      return reference(state, live === null ? command : { ...command, expectedToken: live.token, expectedExpiresAt: live.expiresAt }, now);
    }),
};
