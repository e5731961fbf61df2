// raft-election-safety (seed 001 §283, §340 "one valid consensus leader per term"; Raft's Election
// Safety): at most one candidate wins the votes of a majority in a term. Read at the instant of
// winning, before any entry is committed: a split vote that the coordination records would hide
// (the second winner never commits an epoch) is still two leaders.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { raftElections, type RaftElection } from './raft-records.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'raft-election-safety';

export function raftElectionSafety(history: History): Verdict {
  const violations: Violation[] = [];
  const byTerm = new Map<number, RaftElection>();
  for (const election of raftElections(history)) {
    const first = byTerm.get(election.term);
    if (first === undefined) byTerm.set(election.term, election);
    else if (first.node !== election.node) {
      violations.push(violation(INVARIANT, `term ${election.term} has two leaders: ${first.node} (#${first.event.index}) and ${election.node} (#${election.event.index})`, [first.event.index, election.event.index]));
    }
  }
  return verdictOf(violations);
}
