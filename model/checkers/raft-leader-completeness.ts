// raft-leader-completeness (seed 001 §283; Raft's Leader Completeness): an entry committed in a
// term is in the log of the leader of every higher term, at the same index and of the same term. A
// leader without it would overwrite a decision. The history shows when an entry was applied, not
// the term that committed it; that term is at most the highest term any node had won when the
// entry was applied (a leader commits only after it is elected), so every leader of a higher term
// is judged, whenever its victory is recorded. A leader of a lower or equal term may lawfully lack
// the entry (Raft's figure 8), even if its delayed votes are counted after the entry was applied.
// The bound is safe but not tight: a leader of a term above the committing one but not above that
// highest term (won, say, by a minority winner's late count) is not judged for the entry. Recording
// the committing leader's term with each application would close that gap; it moves every Raft trace.
// Where the leader's snapshot replaced the entry, the snapshot stands for it (state-machine safety
// judges what the snapshot's node applied).

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { raftApplied, raftElections } from './raft-records.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'raft-leader-completeness';

export function raftLeaderCompleteness(history: History): Verdict {
  const violations: Violation[] = [];
  const applied = raftApplied(history);
  const reported = new Set<string>();
  const elections = raftElections(history);
  let highest = 0;
  let next = 0;
  for (const entry of applied) {
    while (next < elections.length && elections[next]!.event.index < entry.event.index) highest = Math.max(highest, elections[next++]!.term);
    for (let i = next; i < elections.length; i++) {
      const election = elections[i]!;
      if (election.term <= highest) continue;
      const held = election.log[entry.index - 1];
      // Null: the winner's snapshot replaced the entry; a snapshot holds only what its node applied.
      if (held === entry.term || held === null) continue;
      const key = `${election.term}/${entry.index}`;
      if (reported.has(key)) continue;
      reported.add(key);
      violations.push(
        violation(INVARIANT, `${election.node} won term ${election.term} (#${election.event.index}) without the committed entry ${entry.index} of term ${entry.term}, which ${entry.node} applied (#${entry.event.index}) when term ${highest} was the highest won; its log holds ${held === undefined ? 'nothing' : `an entry of term ${held}`} there`, [entry.event.index, election.event.index]),
      );
    }
  }
  return verdictOf(violations);
}
