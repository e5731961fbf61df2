// quorum-in-one-region (seed 001 §187–§189: WAN/global Raft is not required and not the baseline;
// three voters within one low-latency region, regional workers and PostgreSQL's own multi-region
// architecture beyond it; §338 "WAN/global Raft is not required for initial production", §340):
// a cut of the links between regions alone never costs the coordination layer its quorum or its
// leader. Between a `wan-partition` and its `wan-heal`, a `quorum-loss` or a `leader-change` with no
// fault inside a region since the cut began (a crash, a pause, a partition, lost messages, a
// membership change, a drained or lost voter) shows a quorum that spans regions.

import type { FaultKind, History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { isFault } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'quorum-in-one-region';

/** Faults that act inside a region: after one of them, a lost quorum or a new leader has another cause. */
const INSIDE: ReadonlySet<FaultKind> = new Set(['crash', 'pause', 'partition', 'message-loss', 'membership-change', 'voter-state-loss', 'leader-transfer', 'impostor', 'api-request', 'orchestrator-lease']);

export function quorumInOneRegion(history: History): Verdict {
  const violations: Violation[] = [];
  let cut: number | null = null;
  let excused = false;
  for (const event of history) {
    if (!isFault(event)) continue;
    if (event.f === 'wan-partition') {
      cut = event.index;
      excused = false;
    } else if (event.f === 'wan-heal' || event.f === 'liveness-phase') {
      cut = null;
    } else if (cut !== null && INSIDE.has(event.f)) {
      excused = true;
    } else if (cut !== null && !excused && (event.f === 'quorum-loss' || event.f === 'leader-change')) {
      const what = event.f === 'quorum-loss' ? 'the voters lost their quorum' : `a new leader was elected (${String(event.value.leader)})`;
      violations.push(violation(INVARIANT, `${what} (#${event.index}) while only the links between regions were cut (#${cut}): the quorum spans regions`, [cut, event.index]));
    }
  }
  return verdictOf(violations);
}
