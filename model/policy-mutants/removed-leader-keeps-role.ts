// removed-leader-keeps-role — seed 001 §64–§65 (remove a voter: drain, remove, stop), §215 (node
// revocation removes membership), §244 (the reconciler checks "role owner node removed"), §338
// ("Removed node cannot keep coordination authority"). The leader commits its own node's removal
// and carries on: it keeps its role guard and keeps scheduling under it.

import type { PolicyMutant } from './policy-mutant.ts';

export const removedLeaderKeepsRole: PolicyMutant = {
  name: 'removed-leader-keeps-role',
  bug: 'a leader whose node was removed from the cluster keeps its role and keeps creating leases under its guard',
  source: '001 §64–§65, §215, §244, §338',
  rule: 'removed-node-no-authority: a removed node leads no term and creates no guarded lease',
  invariants: ['removed-node-no-authority'],
  scenarios: ['membership-change'],
  policy: { stepDownOnRemoval: false },
};
