// The current leader pauses, GC-style (seed 001 §90), and resumes with its beliefs: recorded as a
// `pause` and `resume` of that voter. Knobs: `coordination.faults.leaderPausePct`, `leaderPauseMsMax`.

import { timedCoordinationFault } from './package.ts';

export const leaderPause = timedCoordinationFault('leader-pause', 'leaderPausePct', 'leaderPauseMsMax');
