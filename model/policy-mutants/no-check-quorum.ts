// no-check-quorum — seed 001 §71–§75 ("a leader that cannot reach a majority steps down within its
// lease window"), §98, §261 quorum-loss test. The leader never checks that its heartbeats still
// reach a majority: cut off from every other voter, it goes on leading and scheduling.

import type { PolicyMutant } from './policy-mutant.ts';

export const noCheckQuorum: PolicyMutant = {
  name: 'no-check-quorum',
  bug: 'the leader never steps down when its heartbeats stop reaching a majority (no check-quorum)',
  source: '001 §71–§75, §98, §261',
  rule: 'quorum-loss-degraded: leadership stops within the step-down bound after quorum is lost',
  invariants: ['quorum-loss-degraded'],
  scenarios: ['quorum-loss', 'db-healthy-coordination-lost'],
  policy: { checkQuorum: false },
};
