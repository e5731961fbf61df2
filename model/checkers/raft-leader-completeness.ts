// raft-leader-completeness (seed 001 §283; Raft's Leader Completeness): an entry that some node
// applied, and so was committed, is in the log of every leader elected after it was applied, at
// the same index and of the same term. A leader without it would overwrite a decision. Where the
// leader's snapshot replaced the entry, the snapshot stands for it (state-machine safety judges
// what the snapshot's node applied).

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { raftApplied, raftElections } from './raft-records.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'raft-leader-completeness';

export function raftLeaderCompleteness(history: History): Verdict {
  const violations: Violation[] = [];
  const applied = raftApplied(history);
  const reported = new Set<string>();
  for (const election of raftElections(history)) {
    for (const entry of applied) {
      if (entry.event.index > election.event.index) break;
      const held = election.log[entry.index - 1];
      // Null: the winner's snapshot replaced the entry; a snapshot holds only what its node applied.
      if (held === entry.term || held === null) continue;
      const key = `${election.term}/${entry.index}`;
      if (reported.has(key)) continue;
      reported.add(key);
      violations.push(
        violation(INVARIANT, `${election.node} won term ${election.term} (#${election.event.index}) without the committed entry ${entry.index} of term ${entry.term}, which ${entry.node} applied (#${entry.event.index}); its log holds ${held === undefined ? 'nothing' : `an entry of term ${held}`} there`, [entry.event.index, election.event.index]),
      );
    }
  }
  return verdictOf(violations);
}
