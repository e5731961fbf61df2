// The current leader is cut off from every other voter but not from the database (seed 001 §97,
// §99): recorded as a `partition` naming the groups that still talk, then a `heal`.
// Knobs: `coordination.faults.leaderIsolatePct`, `leaderIsolateMsMax`, and `newLeaderIsolatePct`,
// `newLeaderIsolateMsMax`, which the Raft service draws itself as a new leader appends its first
// entry (sim/raft/raft-faults.ts).

import { timedCoordinationFault } from './coordination-fault.ts';
import { coordinationKnob, ms, pct } from './package.ts';

export const leaderIsolate = timedCoordinationFault('leader-isolate', {
  knobs: {
    leaderIsolatePct: coordinationKnob(pct, 'Chance (percent) per tick that the leader is cut off from every other voter but not from the database (001 §97, §99).'),
    leaderIsolateMsMax: coordinationKnob(ms, 'Longest leader isolation, in ms.'),
    newLeaderIsolatePct: coordinationKnob(
      pct,
      "Chance (percent) that a leader, as it appends its first entry, is cut off from every voter but one for up to `newLeaderIsolateMsMax` (`consensus: 'raft'`): its entry reaches a minority.",
    ),
    newLeaderIsolateMsMax: coordinationKnob(ms, 'Longest isolation of a new leader, in ms.'),
  },
  chance: 'leaderIsolatePct',
  longest: 'leaderIsolateMsMax',
});
