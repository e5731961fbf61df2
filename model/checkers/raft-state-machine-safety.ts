// raft-state-machine-safety (seed 001 §48, §283, §340; Raft's State Machine Safety): no two nodes
// apply different entries at the same index, so every node's coordination state passes through
// the same sequence of epochs and owners. A node that applies an index again after a restart must
// apply the same entry. A snapshot a node installs stands for the entries it covers: the entry at
// its last index must be of the term applied there.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { raftApplied, raftSnapshots, type RaftApplied } from './raft-records.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'raft-state-machine-safety';

export function raftStateMachineSafety(history: History): Verdict {
  const violations: Violation[] = [];
  const first = new Map<number, RaftApplied>();
  const reported = new Set<number>();
  for (const entry of raftApplied(history)) {
    const earlier = first.get(entry.index);
    if (earlier === undefined) {
      first.set(entry.index, entry);
      continue;
    }
    if ((earlier.term === entry.term && earlier.leader === entry.leader) || reported.has(entry.index)) continue;
    reported.add(entry.index);
    violations.push(
      violation(INVARIANT, `index ${entry.index} was applied as two entries: term ${earlier.term} electing ${earlier.leader} by ${earlier.node} (#${earlier.event.index}), term ${entry.term} electing ${entry.leader} by ${entry.node} (#${entry.event.index})`, [earlier.event.index, entry.event.index]),
    );
  }
  for (const snapshot of raftSnapshots(history)) {
    const applied = first.get(snapshot.index);
    if (!snapshot.installed || applied === undefined || applied.term === snapshot.term || reported.has(snapshot.index)) continue;
    reported.add(snapshot.index);
    violations.push(
      violation(INVARIANT, `${snapshot.node} installed a snapshot up to index ${snapshot.index} of term ${snapshot.term} (#${snapshot.event.index}), but ${applied.node} applied an entry of term ${applied.term} there (#${applied.event.index})`, [applied.event.index, snapshot.event.index]),
    );
  }
  return verdictOf(violations);
}
