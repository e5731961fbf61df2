// The platform's own leader election (a Kubernetes Lease, say) names a daemon as leader for a
// while, whatever the coordination layer decided (seed 001 §202–§204): it names the first running
// voter that does not lead. A daemon must take its roles from the coordination epochs alone, so
// the correct cluster records the lease and does nothing else. Abstract consensus only. Recorded
// as `orchestrator-lease` `{ node, durationMs }`.
// Knobs: `coordination.faults.orchestratorLeasePct`, `orchestratorLeaseMsMax`.

import { z } from 'zod';
import { toCoordination } from './coordination-fault.ts';
import { coordinationKnob, defineFault, ms, pct, simulatedOnly } from './package.ts';

export const orchestratorLease = defineFault({
  schema: z.object({ f: z.literal('orchestrator-lease'), at: ms, durationMs: ms }).strict(),
  knobs: {
    orchestratorLeasePct: coordinationKnob(
      pct,
      "Chance (percent) per coordination tick that the platform's own leader election names a daemon that does not lead, for up to `orchestratorLeaseMsMax` (abstract consensus; 001 §202–§204).",
    ),
    orchestratorLeaseMsMax: coordinationKnob(ms, 'Longest platform lease, in ms.'),
  },
  randomWhen: ['orchestratorLeasePct'],
  draw: {
    on: 'coordination',
    at: (tick, mine, stream) =>
      stream.chance(mine.orchestratorLeasePct) ? { f: 'orchestrator-lease' as const, at: tick.at, durationMs: stream.int(1, Math.max(1, mine.orchestratorLeaseMsMax)) } : null,
  },
  apply: toCoordination,
  records: { 'orchestrator-lease': { real: simulatedOnly('the platform lease is simulated beside the coordination layer; the database is unaffected'), colour: '#16a085' } },
});
