// The current leader crashes (seed 001 §82, §259): whoever leads when the fault fires. Recorded
// as a `crash` of that voter (with `leader: true`); its next incarnation starts after `downMs`.
// Knobs: `coordination.faults.leaderCrashPct`, `leaderDownMs`, and `newLeaderCrashPct`, which the
// Raft service draws itself as a leader wins (sim/raft/raft-faults.ts).

import { z } from 'zod';
import { toCoordination } from './coordination-fault.ts';
import { coordinationKnob, defineFault, ms, pct } from './package.ts';

const schema = z.object({ f: z.literal('leader-crash'), at: ms, downMs: ms }).strict();

export const leaderCrash = defineFault({
  schema,
  knobs: {
    leaderCrashPct: coordinationKnob(pct, 'Chance (percent) per tick that the current leader crashes (001 §82, §259).'),
    leaderDownMs: coordinationKnob(ms, 'Time a crashed leader stays down before its next incarnation starts, in ms.'),
    newLeaderCrashPct: coordinationKnob(
      pct,
      "Chance (percent) that a newly elected leader crashes within two heartbeats of winning, before or just after its first entry is replicated (`consensus: 'raft'`; the downtime is `leaderDownMs`).",
    ),
  },
  randomWhen: ['leaderCrashPct'],
  draw: {
    on: 'coordination',
    at: (tick, mine, stream) => (stream.chance(mine.leaderCrashPct) ? { f: 'leader-crash' as const, at: tick.at, downMs: Math.max(1, mine.leaderDownMs) } : null),
  },
  apply: toCoordination,
  records: {},
});
