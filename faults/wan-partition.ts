// The wide-area link between regions is cut for a while (seed 001 §187–§189): daemons in different
// regions cannot reach each other, while each region keeps its own links and the database stays
// reachable (PostgreSQL's own multi-region architecture, §189). The nodes are in
// `coordination.regions` regions (sim/coordination/regions.ts); a cluster whose quorum lives in
// one region keeps it. Abstract consensus only. Recorded as `wan-partition`
// `{ regions, durationMs }` and `wan-heal`.
// Knobs: `coordination.faults.wanPartitionPct`, `wanPartitionMsMax`.

import { timedCoordinationFault } from './coordination-fault.ts';
import { coordinationKnob, ms, pct, simulatedOnly } from './package.ts';

const between = simulatedOnly('regions are links between simulated daemons; the database links are unaffected');

export const wanPartition = timedCoordinationFault('wan-partition', {
  knobs: {
    wanPartitionPct: coordinationKnob(pct, 'Chance (percent) per coordination tick that the links between regions are cut, for up to `wanPartitionMsMax` (with `regions` above 1; 001 §187–§189).'),
    wanPartitionMsMax: coordinationKnob(ms, 'Longest cut between regions, in ms.'),
  },
  chance: 'wanPartitionPct',
  longest: 'wanPartitionMsMax',
  records: {
    'wan-partition': { real: between, colour: '#34495e', endedBy: 'wan-heal' },
    'wan-heal': { real: between },
  },
});
