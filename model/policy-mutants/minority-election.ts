// minority-election — seed 001 §67–§71 (a leader is elected by a majority of the voters), §89,
// §283, §340 (election safety). The vote count compares with half the voters instead of a
// majority: an isolated voter, or one side of an even split, elects itself.

import type { PolicyMutant } from './policy-mutant.ts';

export const minorityElection: PolicyMutant = {
  name: 'minority-election',
  bug: 'an election is won with half the voters’ votes rounded down, not a majority',
  source: '001 §67–§71, §89, §283',
  rule: 'one-leader-per-term: a leader is elected by a majority of the voters of its term',
  invariants: ['one-leader-per-term', 'raft-election-safety'],
  scenarios: ['minority-partition', 'quorum-loss', 'three-node-failover', 'raft-failover'],
  policy: { majorityElections: false },
};
