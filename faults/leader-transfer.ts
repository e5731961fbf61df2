// An operator drains the leader (seed 001 §270, §294): the leader stops its role first (marks it
// inactive, cancels its loops, drops its epoch), then hands leadership to its most caught-up
// follower, which stands for election at once. Message-level consensus only
// (`coordination.consensus: 'raft'`). Recorded as `leader-transfer` `{ process, node, to }`.
// Knob: `coordination.faults.leaderTransferPct` (at each coordination tick).

import { instantCoordinationFault } from './coordination-fault.ts';
import { coordinationKnob, pct, simulatedOnly } from './package.ts';

export const leaderTransfer = instantCoordinationFault('leader-transfer', {
  knobs: { leaderTransferPct: coordinationKnob(pct, "Chance (percent) per coordination tick that an operator drains the leader (`consensus: 'raft'`; 001 §270).") },
  chance: 'leaderTransferPct',
  records: { 'leader-transfer': { real: simulatedOnly('the coordination layer is simulated; the database is unaffected'), colour: '#2980b9' } },
});
