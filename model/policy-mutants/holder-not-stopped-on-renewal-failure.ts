// holder-not-stopped-on-renewal-failure — seed 003 (commit 0892821, "cancel handlers when the
// lease refresh loop errors out": "the lease expires at TTL while the handler ... would keep
// running unserialized"), seed 000 §157–§160 (renewal failure → OwnershipUncertain, no new side
// effects); seed 002 544eda0 ("every deferred lock holder is now cancelled when its lease is lost ...
// so a force release from another instance actually stops the victim"). The controller sees its
// renewal fail and keeps working as if it still owned the scope.

import type { PolicyMutant } from './policy-mutant.ts';

export const holderNotStoppedOnRenewalFailure: PolicyMutant = {
  name: 'holder-not-stopped-on-renewal-failure',
  bug: 'a holder whose renewal fails keeps starting side effects instead of entering OwnershipUncertain',
  source: '003 commit 0892821; 002 544eda0; 000 §157–§160',
  rule: 'one-owner-per-epoch: a holder whose renewal failed starts no new side effect (OwnershipUncertain)',
  invariants: ['one-owner-per-epoch', 'lease-exclusive'],
  scenarios: ['renewal-failure-stops-holder', 'force-release-stalled-holders', 'paused-holder-expiry', 'standard-mix'],
  policy: { stopOnRenewalFailure: false },
};
