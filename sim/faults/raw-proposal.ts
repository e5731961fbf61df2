// A public client asks a daemon's API to propose a raw coordination command (seed 001 §220–§223):
// an ElectLeader naming a voter that does not lead, in the next term. The public API must refuse
// it: operators reach the cluster through the typed cluster service only (the maintenance and
// membership requests), which validates a request and proposes a safe command. Abstract consensus
// only. Recorded as `api-request` (sim/coordination/public-api.ts).
// Knob: `coordination.faults.rawProposalPct` (at each coordination tick).

import { z } from 'zod';
import { defineFault, ms, simulatedOnly, toCoordination } from './package.ts';

export const rawProposal = defineFault({
  schema: z.object({ f: z.literal('raw-proposal'), at: ms }).strict(),
  randomWhen: ['rawProposalPct'],
  draw: {
    on: 'coordination',
    at: (tick, _mine, stream) => (stream.chance(tick.coordination!.rawProposalPct) ? { f: 'raw-proposal' as const, at: tick.at } : null),
  },
  apply: toCoordination,
  records: { 'api-request': { real: simulatedOnly('the public API and the coordination layer are simulated; the database is unaffected'), colour: '#7f8c8d' } },
});
