// The current leader is cut off from every other voter but not from the database (seed 001 §97,
// §99): recorded as a `partition` naming the groups that still talk, then a `heal`.
// Knobs: `coordination.faults.leaderIsolatePct`, `leaderIsolateMsMax`.

import { z } from 'zod';
import { defineFault, ms, toCoordination } from './package.ts';

const schema = z.object({ f: z.literal('leader-isolate'), at: ms, durationMs: ms }).strict();

export const leaderIsolate = defineFault({
  schema,
  randomWhen: ['leaderIsolatePct'],
  draw: {
    on: 'coordination',
    at: (tick, _mine, stream) => (stream.chance(tick.coordination!.leaderIsolatePct) ? { f: 'leader-isolate' as const, at: tick.at, durationMs: stream.int(1, Math.max(1, tick.coordination!.leaderIsolateMsMax)) } : null),
  },
  apply: toCoordination,
  records: {},
});
