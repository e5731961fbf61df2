// no-provider-fencing — seed 000 §26–§28 ("Fencing token passed to the resource"; the provider
// checks an expected token where it supports one), §281. The controller never sends its token to
// the provider: an effect request that sat in the network past its lease's expiry is applied
// after the next owner's effect. Seed 002 ("Why staged" item 3): a holder the new owner cannot
// stop in time (on another instance, or a request already on its way) is stopped only by fencing.

import type { PolicyMutant } from './policy-mutant.ts';

export const noProviderFencing: PolicyMutant = {
  name: 'no-provider-fencing',
  bug: 'effects are sent without the fencing token, so the provider cannot refuse a stale holder’s late request',
  source: '000 §26–§28, §281; 002 "Why staged" item 3 (holders on other instances need fencing)',
  rule: 'one-owner-per-epoch: no protected write or effect under a token lower than one already accepted',
  invariants: ['one-owner-per-epoch', 'no-blind-retry'],
  scenarios: ['provider-fencing'],
  policy: { sendFencingToken: false },
};
