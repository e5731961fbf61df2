// The content-addressed artifact store stops answering for a while (seed 001 §100, §278): the
// coordination layer must be unaffected, and attempts that need an artifact must give their jobs
// back rather than act without it (sim/coordination/artifact-store.ts). Runs with
// `coordination.artifacts` only. Recorded as `cas-outage` `{ durationMs }`.
// Knobs: `coordination.faults.casOutagePct`, `casOutageMsMax`.

import { timedCoordinationFault } from './coordination-fault.ts';
import { coordinationKnob, ms, pct, simulatedOnly } from './package.ts';

export const casOutage = timedCoordinationFault('cas-outage', {
  knobs: {
    casOutagePct: coordinationKnob(pct, 'Chance (percent) per coordination tick that the artifact store stops answering, for up to `casOutageMsMax` (with `artifacts`; 001 §100, §278).'),
    casOutageMsMax: coordinationKnob(ms, 'Longest artifact store outage, in ms.'),
  },
  chance: 'casOutagePct',
  longest: 'casOutageMsMax',
  records: { 'cas-outage': { real: simulatedOnly('the artifact store is simulated; the database is unaffected'), colour: '#c0392b' } },
});
