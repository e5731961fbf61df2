// A symmetric partition of the voters (seed 001 §98): every voter alone, no quorum, for a while.
// Recorded as a `partition` and `heal`; the coordination layer records the `quorum-loss`.
// Knobs: `coordination.faults.quorumSplitPct`, `quorumSplitMsMax`.

import { timedCoordinationFault } from './coordination-fault.ts';
import { coordinationKnob, ms, pct } from './package.ts';

export const quorumSplit = timedCoordinationFault('quorum-split', {
  knobs: {
    quorumSplitPct: coordinationKnob(pct, 'Chance (percent) per tick of a symmetric partition: every voter alone, no quorum (001 §98).'),
    quorumSplitMsMax: coordinationKnob(ms, 'Longest symmetric partition, in ms.'),
  },
  chance: 'quorumSplitPct',
  longest: 'quorumSplitMsMax',
});
