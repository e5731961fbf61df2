// orphan-judged-too-soon — seed 002 (b1a49c3 "a preemptor arriving while the owner is still
// routing or deduping can never mistake the fresh local lease for a remote one and force-release
// it"; 544eda0 "a lease can never exist locally without a visible reservation"), seed 000 §202.
// The operator takes a lease whose expiry did not move for half a renewal interval for an orphan:
// a fresh or healthy lease, between two of its holder's renewals, is forced.

import type { PolicyMutant } from './policy-mutant.ts';

export const orphanJudgedTooSoon: PolicyMutant = {
  name: 'orphan-judged-too-soon',
  bug: 'a holder is judged stalled when its lease did not move for half a renewal interval, so fresh and healthy leases are forced',
  source: '002 b1a49c3, 544eda0 (fresh lease mistaken for an orphan); 000 §202',
  rule: 'force-release-judged: a force removes no lease granted or renewed within two renewal intervals before it',
  invariants: ['force-release-judged'],
  scenarios: ['force-release-stalled-holders'],
  policy: { judgeStallOverRenewals: false },
};
