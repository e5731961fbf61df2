// The current leader is cut off from every other voter but not from the database (seed 001 §97,
// §99): recorded as a `partition` naming the groups that still talk, then a `heal`.
// Knobs: `coordination.faults.leaderIsolatePct`, `leaderIsolateMsMax`.

import { timedCoordinationFault } from './package.ts';

export const leaderIsolate = timedCoordinationFault('leader-isolate', 'leaderIsolatePct', 'leaderIsolateMsMax');
