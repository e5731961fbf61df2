// vote-ignores-log — seed 001 §283, §340; Raft paper 5.4.1. A Raft voter grants its vote without
// comparing logs: a candidate that lacks committed entries wins, and its log replaces theirs.

import type { PolicyMutant } from './policy-mutant.ts';

export const voteIgnoresLog: PolicyMutant = {
  name: 'vote-ignores-log',
  bug: 'a Raft voter votes for a candidate whose log is behind its own',
  source: '001 §283, §340',
  rule: 'raft-leader-completeness: every leader holds every entry committed before it won',
  invariants: ['raft-leader-completeness', 'raft-state-machine-safety'],
  scenarios: ['raft-failover', 'raft-old-term-commit'],
  policy: { votesNeedUpToDateLog: false },
};
