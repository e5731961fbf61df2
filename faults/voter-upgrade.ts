// A rolling upgrade step (seed 001 §149–§156, §269): the voter's process stops and comes back after
// `downMs` running the next binary, which reads every coordination command of the version before
// it and one more. Message-level consensus only (`coordination.consensus: 'raft'`). Recorded as a
// `crash` of the voter and a `voter-upgrade` with its new binary version. Scripted only: a rolling
// upgrade is an operator's plan, one voter after another.

import { z } from 'zod';
import { toCoordination } from './coordination-fault.ts';
import { defineFault, ms, node, simulatedOnly } from './package.ts';

export const voterUpgrade = defineFault({
  schema: z.object({ f: z.literal('voter-upgrade'), at: ms, node, downMs: ms }).strict(),
  apply: toCoordination,
  records: { 'voter-upgrade': { real: simulatedOnly('the coordination layer is simulated; the database is unaffected'), colour: '#16a085' } },
});
