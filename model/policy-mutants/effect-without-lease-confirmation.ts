// effect-without-lease-confirmation — seed 000 §160 ("Holder cannot assume lease remains valid"),
// §157–§158 (no new protected side effect without ownership), §25–§30 (a lock alone is not
// enough). The worker checks nothing between its write and the external effect: after a pause, or
// a write whose reply sat in the network, it calls the provider on a lease that already expired
// and may have a new owner.

import type { PolicyMutant } from './policy-mutant.ts';

export const effectWithoutLeaseConfirmation: PolicyMutant = {
  name: 'effect-without-lease-confirmation',
  bug: 'a holder calls the external provider without confirming its lease first, so an expired lease still drives a side effect',
  source: '000 §157–§160, §25–§30',
  rule: 'one-owner-per-epoch: no effect under a token lower than one already accepted (confirm the lease before the effect)',
  invariants: ['one-owner-per-epoch', 'lease-exclusive'],
  scenarios: ['standalone-coordination', 'paused-holder-expiry', 'standard-mix'],
  policy: { checkLeaseBeforeEffect: false },
};
