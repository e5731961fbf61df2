// An operator drains the leader (seed 001 §270, §294): the leader stops its role first (marks it
// inactive, cancels its loops, drops its epoch), then hands leadership to its most caught-up
// follower, which stands for election at once. Message-level consensus only
// (`coordination.consensus: 'raft'`). Recorded as `leader-transfer` `{ process, node, to }`.
// Knob: `coordination.faults.leaderTransferPct` (at each coordination tick).

import { z } from 'zod';
import { defineFault, ms, simulatedOnly, toCoordination } from './package.ts';

export const leaderTransfer = defineFault({
  schema: z.object({ f: z.literal('leader-transfer'), at: ms }).strict(),
  randomWhen: ['leaderTransferPct'],
  draw: {
    on: 'coordination',
    at: (tick, _mine, stream) => (stream.chance(tick.coordination!.leaderTransferPct) ? { f: 'leader-transfer' as const, at: tick.at } : null),
  },
  apply: toCoordination,
  records: { 'leader-transfer': { real: simulatedOnly('the coordination layer is simulated; the database is unaffected'), colour: '#2980b9' } },
});
