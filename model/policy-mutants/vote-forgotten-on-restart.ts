// vote-forgotten-on-restart — seed 001 §167 (durable writes), §169 (voter state is never silently
// reset), §283. A Raft voter keeps its vote only in memory: restarted within a term, it votes
// again, for another candidate, and two candidates win the same term.

import type { PolicyMutant } from './policy-mutant.ts';

export const voteForgottenOnRestart: PolicyMutant = {
  name: 'vote-forgotten-on-restart',
  bug: 'a restarted Raft voter has forgotten whom it voted for in its current term and votes again',
  source: '001 §167, §169, §283',
  rule: 'raft-election-safety: at most one candidate wins the votes of a majority in a term',
  invariants: ['raft-election-safety'],
  scenarios: ['raft-voter-restart', 'raft-old-term-commit'],
  policy: { votesPersist: false },
};
