// The current leader pauses, GC-style (seed 001 §90), and resumes with its beliefs: recorded as a
// `pause` and `resume` of that voter. Knobs: `coordination.faults.leaderPausePct`, `leaderPauseMsMax`.

import { z } from 'zod';
import { defineFault, ms, toCoordination } from './package.ts';

const schema = z.object({ f: z.literal('leader-pause'), at: ms, durationMs: ms }).strict();

export const leaderPause = defineFault({
  schema,
  randomWhen: ['leaderPausePct'],
  draw: {
    on: 'coordination',
    at: (tick, _mine, stream) => (stream.chance(tick.coordination!.leaderPausePct) ? { f: 'leader-pause' as const, at: tick.at, durationMs: stream.int(1, Math.max(1, tick.coordination!.leaderPauseMsMax)) } : null),
  },
  apply: toCoordination,
  records: {},
});
