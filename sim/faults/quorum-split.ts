// A symmetric partition of the voters (seed 001 §98): every voter alone, no quorum, for a while.
// Recorded as a `partition` and `heal`; the coordination layer records the `quorum-loss`.
// Knobs: `coordination.faults.quorumSplitPct`, `quorumSplitMsMax`.

import { z } from 'zod';
import { defineFault, ms, toCoordination } from './package.ts';

const schema = z.object({ f: z.literal('quorum-split'), at: ms, durationMs: ms }).strict();

export const quorumSplit = defineFault({
  schema,
  randomWhen: ['quorumSplitPct'],
  draw: {
    on: 'coordination',
    at: (tick, _mine, stream) => (stream.chance(tick.coordination!.quorumSplitPct) ? { f: 'quorum-split' as const, at: tick.at, durationMs: stream.int(1, Math.max(1, tick.coordination!.quorumSplitMsMax)) } : null),
  },
  apply: toCoordination,
  records: {},
});
