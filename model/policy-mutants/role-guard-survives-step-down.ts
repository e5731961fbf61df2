// role-guard-survives-step-down — seed 001 §74–§75 (a leader that loses its majority stops within
// its window), §96, §294 ("step-down invalidates the role guard"), §296–§305. Stepping down changes
// the node's role but the guard object stays valid in the process: the scheduler loop keeps
// creating leases with it through a quorum loss.

import type { PolicyMutant } from './policy-mutant.ts';

export const roleGuardSurvivesStepDown: PolicyMutant = {
  name: 'role-guard-survives-step-down',
  bug: 'a leader’s role guard stays usable after it steps down, so it keeps scheduling without a majority',
  source: '001 §74–§75, §96, §294, §296–§305',
  rule: 'quorum-loss-degraded: no guarded lease creation later than the step-down bound after quorum is lost',
  invariants: ['quorum-loss-degraded', 'fenced-stale-leader'],
  scenarios: ['quorum-loss', 'db-healthy-coordination-lost'],
  policy: { guardEndsWithRole: false },
};
