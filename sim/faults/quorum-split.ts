// A symmetric partition of the voters (seed 001 §98): every voter alone, no quorum, for a while.
// Recorded as a `partition` and `heal`; the coordination layer records the `quorum-loss`.
// Knobs: `coordination.faults.quorumSplitPct`, `quorumSplitMsMax`.

import { timedCoordinationFault } from './package.ts';

export const quorumSplit = timedCoordinationFault('quorum-split', 'quorumSplitPct', 'quorumSplitMsMax');
