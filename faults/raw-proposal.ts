// A public client asks a daemon's API to propose a raw coordination command (seed 001 §220–§223):
// an ElectLeader naming a voter that does not lead, in the next term. The public API must refuse
// it: operators reach the cluster through the typed cluster service only (the maintenance and
// membership requests), which validates a request and proposes a safe command. Abstract consensus
// only. Recorded as `api-request` (sim/coordination/public-api.ts).
// Knob: `coordination.faults.rawProposalPct` (at each coordination tick).

import { instantCoordinationFault } from './coordination-fault.ts';
import { coordinationKnob, pct, simulatedOnly } from './package.ts';

export const rawProposal = instantCoordinationFault('raw-proposal', {
  knobs: { rawProposalPct: coordinationKnob(pct, 'Chance (percent) per coordination tick that a public client asks the API to propose a raw ElectLeader (abstract consensus; 001 §220–§223).') },
  chance: 'rawProposalPct',
  records: { 'api-request': { real: simulatedOnly('the public API and the coordination layer are simulated; the database is unaffected'), colour: '#7f8c8d' } },
});
