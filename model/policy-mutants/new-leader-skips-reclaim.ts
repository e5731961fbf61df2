// new-leader-skips-reclaim — seed 001 §84–§88 (a new leader rebuilds the scheduler's view from the
// database and reconciles what the previous leader left in flight), §259 (leader failover test).
// A new leader serves the eligible jobs it finds but never reclaims the ones a failed leader was
// dispatching when it died: they stay marked as being dispatched by a process that no longer
// exists, and are never run.

import type { PolicyMutant } from './policy-mutant.ts';

export const newLeaderSkipsReclaim: PolicyMutant = {
  name: 'new-leader-skips-reclaim',
  bug: 'a new leader does not reclaim the jobs a failed leader left half-dispatched, so they are never run',
  source: '001 §84–§88, §259',
  rule: 'jobs-complete: every job submitted finishes once faults heal, within the bound of its turn on its scope',
  invariants: ['jobs-complete'],
  scenarios: ['three-node-failover', 'restart-incarnation', 'standalone-coordination'],
  policy: { reclaimOnLead: false },
};
