// boolean-leader-flag — seed 001 §296–§305 ("No Boolean is_leader"; "High-risk coordinator methods
// require RoleGuard"), §90 process-level split brain, §262 stale leader test. The scheduler checks
// "am I leader?" and then creates leases with no guard, so the store has no epoch to check: a
// deposed leader that still believes it leads keeps creating authoritative leases.

import type { PolicyMutant } from './policy-mutant.ts';

export const booleanLeaderFlag: PolicyMutant = {
  name: 'boolean-leader-flag',
  bug: 'the scheduler acts on a boolean leader flag and sends no role guard, so a deposed leader’s leases are not fenced',
  source: '001 §90, §262, §296–§305',
  rule: 'fenced-stale-leader: no lease is created under an older role epoch than the store has seen',
  invariants: ['fenced-stale-leader'],
  scenarios: ['stale-leader-epoch', 'scheduler-epoch', 'minority-partition'],
  policy: { roleGuard: false },
};
