// wiped-voter-votes — seed 001 §168 (a node with corrupt disk state fails safe), §169 ("do not
// silently reset voter state: it could cause split brain"), §272, §283. A Raft voter whose durable
// state was wiped comes back as if new and votes: in a term it already voted in, for another
// candidate, or for a candidate that lacks the entries it had acknowledged.

import type { PolicyMutant } from './policy-mutant.ts';

export const wipedVoterVotes: PolicyMutant = {
  name: 'wiped-voter-votes',
  bug: 'a Raft voter whose durable state was wiped silently starts afresh and votes again',
  source: '001 §168–§169, §272, §283',
  rule: 'raft-election-safety and raft-leader-completeness: a voter that lost what it voted and stored does not vote',
  invariants: ['raft-election-safety', 'raft-leader-completeness', 'raft-state-machine-safety'],
  scenarios: ['raft-voter-state-loss'],
  policy: { lostStateFailsSafe: false },
};
