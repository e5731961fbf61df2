// force-without-observed-expiry — seed 002 (022d1f8 "gate ForceReleaseLock's delete by the
// observed revision"; ebe1ab8 "pending-slot validation and local cancellation are now one atomic
// operation"; "Why staged" item 1, "remote force validation must be atomic"), seed 000 §200–§204.
// The operator validates that the lease is still the stalled one it watched, then forces it by
// token alone in a second step: a holder that comes back and renews in between loses a live lease.

import type { PolicyMutant } from './policy-mutant.ts';

export const forceWithoutObservedExpiry: PolicyMutant = {
  name: 'force-without-observed-expiry',
  bug: 'the force release is bound to the token only, so its validation and the force are two steps and a renewal between them is ignored',
  source: '002 022d1f8, ebe1ab8 (remote force validation atomic); 000 §200–§204, §290',
  rule: 'force-release-judged: a force removes no lease renewed within two renewal intervals before it',
  invariants: ['force-release-judged'],
  scenarios: ['force-release-stalled-holders'],
  policy: { forceBindsObservedExpiry: false },
};
