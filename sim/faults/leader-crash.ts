// The current leader crashes (seed 001 §82, §259): whoever leads when the fault fires. Recorded
// as a `crash` of that voter (with `leader: true`); its next incarnation starts after `downMs`.
// Knobs: `coordination.faults.leaderCrashPct`, `leaderDownMs`.

import { z } from 'zod';
import { defineFault, ms, toCoordination } from './package.ts';

const schema = z.object({ f: z.literal('leader-crash'), at: ms, downMs: ms }).strict();

export const leaderCrash = defineFault({
  schema,
  randomWhen: ['leaderCrashPct'],
  draw: {
    on: 'coordination',
    at: (tick, _mine, stream) => (stream.chance(tick.coordination!.leaderCrashPct) ? { f: 'leader-crash' as const, at: tick.at, downMs: Math.max(1, tick.coordination!.leaderDownMs) } : null),
  },
  apply: toCoordination,
  records: {},
});
