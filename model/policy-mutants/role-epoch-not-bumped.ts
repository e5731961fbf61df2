// role-epoch-not-bumped — seed 001 §29 ("each leadership change gets a new epoch"), §82–§88,
// §94, §264–§265 (an old coordinator cannot promote after a new epoch). When leadership changes
// hands the role assignment keeps its predecessor's epoch: the new coordinator's guard carries the
// same epoch as the deposed one's, so the store cannot tell their promotions apart.

import type { PolicyMutant } from './policy-mutant.ts';

export const roleEpochNotBumped: PolicyMutant = {
  name: 'role-epoch-not-bumped',
  bug: 'a new leader’s role guard carries its predecessor’s role epoch instead of the epoch its election committed',
  source: '001 §29, §82–§88, §94, §264–§265',
  rule: 'no-split-promotion: one coordinator epoch’s promotions come from one coordinator incarnation',
  invariants: ['no-split-promotion', 'fenced-stale-leader'],
  scenarios: ['release-coordinator-epoch', 'deployment-coordinator-epoch', 'three-node-failover', 'standalone-coordination'],
  policy: { newRoleEpochPerLeader: false },
};
