// force-release-reread-token — seed 002 (PR #53 "key-only ForceReleaseLock cannot bind the force
// to the lease observed at conflict time"), seed 003 (preempt: re-validate before force release),
// seed 000 §200–§204, §290. The operator investigates the stuck holder's lease, then re-reads the
// scope and force-releases whatever lease is current by then — a newer, healthy holder's.

import type { PolicyMutant } from './policy-mutant.ts';

export const forceReleaseRereadToken: PolicyMutant = {
  name: 'force-release-reread-token',
  bug: 'the operator force-releases the token it re-reads after investigating, not the one it observed and reconciled',
  source: '002 PR #53; 003 preempt re-validation; 000 §200–§204, §290',
  rule: 'force-release-judged: no lease granted or renewed within ⅔ of its TTL is forced (§202 only after reconciliation/manual proof)',
  invariants: ['force-release-judged'],
  scenarios: ['force-release-stalled-holders', 'force-release-observed-epoch'],
  policy: { forceReleaseWithObservedEpoch: false },
};
