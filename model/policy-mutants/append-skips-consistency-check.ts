// append-skips-consistency-check — seed 001 §283, §340; Raft paper 5.3. A Raft follower appends a
// leader's entries after whatever it holds at the leader's previous index, without checking that
// it is the leader's entry: logs that agree at one entry disagree before it.

import type { PolicyMutant } from './policy-mutant.ts';

export const appendSkipsConsistencyCheck: PolicyMutant = {
  name: 'append-skips-consistency-check',
  bug: "a Raft follower appends without checking that it holds the leader's previous entry",
  source: '001 §283, §340',
  rule: 'raft-log-matching: two logs with the same entry at an index are identical up to it',
  invariants: ['raft-log-matching', 'raft-state-machine-safety', 'raft-leader-completeness'],
  scenarios: ['raft-failover', 'raft-old-term-commit'],
  policy: { appendChecksPrevious: false },
};
