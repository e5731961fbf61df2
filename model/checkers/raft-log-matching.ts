// raft-log-matching (seed 001 §283; Raft's Log Matching): if two logs hold an entry of the same
// term at the same index, they are identical up to it. Judged on every log the history shows
// whole: each winner's log when it won. An entry is named by its term at its index, since a
// leader creates at most one entry per index in its term. Entries a snapshot replaced (null) are
// compared nowhere.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { raftElections } from './raft-records.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'raft-log-matching';

export function raftLogMatching(history: History): Verdict {
  const violations: Violation[] = [];
  const logs = raftElections(history);
  for (const [i, a] of logs.entries()) {
    for (const b of logs.slice(i + 1)) {
      const length = Math.min(a.log.length, b.log.length);
      // The last index where both hold the same entry; before it the logs must agree.
      let last = 0;
      for (let index = length; index >= 1; index--) {
        if (a.log[index - 1] !== null && a.log[index - 1] === b.log[index - 1]) {
          last = index;
          break;
        }
      }
      const differs = a.log.slice(0, last).findIndex((term, k) => term !== null && b.log[k] !== null && term !== b.log[k]);
      if (differs < 0) continue;
      violations.push(
        violation(INVARIANT, `the logs of ${a.node} (term ${a.term}, #${a.event.index}) and ${b.node} (term ${b.term}, #${b.event.index}) hold the same entry (term ${a.log[last - 1]}) at index ${last} but differ at index ${differs + 1} (terms ${a.log[differs]} and ${b.log[differs]})`, [a.event.index, b.event.index]),
      );
    }
  }
  return verdictOf(violations);
}
