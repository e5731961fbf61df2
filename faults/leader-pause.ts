// The current leader pauses, GC-style (seed 001 §90), and resumes with its beliefs: recorded as a
// `pause` and `resume` of that voter. Knobs: `coordination.faults.leaderPausePct`, `leaderPauseMsMax`.

import { timedCoordinationFault } from './coordination-fault.ts';
import { coordinationKnob, ms, pct } from './package.ts';

export const leaderPause = timedCoordinationFault('leader-pause', {
  knobs: {
    leaderPausePct: coordinationKnob(pct, 'Chance (percent) per tick that the current leader pauses, GC-style (001 §90).'),
    leaderPauseMsMax: coordinationKnob(ms, 'Longest leader pause, in ms.'),
  },
  chance: 'leaderPausePct',
  longest: 'leaderPauseMsMax',
});
