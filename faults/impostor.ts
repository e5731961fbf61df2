// A process on the cluster network claims to be a voter and asks the others for their votes in a
// newer term (seed 001 §56–§59, §214–§217). What it presents: no certificate, a forged one (never
// issued), another node's valid certificate, or the claimed node's own certificate that an
// operator revoked by rotating it after it leaked. A daemon acts only on a peer that
// authenticates as the member it claims to be, so every voter must refuse each of them. Abstract
// consensus only. Recorded as `impostor` (sim/coordination/peer-trust.ts), and the certificates
// the cluster issues and revokes as `certificate`.
// Knob: `coordination.faults.impostorPct` (at each coordination tick, one of the four credentials).

import { z } from 'zod';
import { toCoordination } from './coordination-fault.ts';
import { coordinationKnob, defineFault, ms, pct, simulatedOnly } from './package.ts';

export const IMPOSTOR_CREDENTIALS = ['none', 'forged', 'other-node', 'revoked'] as const;

const notTheDatabase = simulatedOnly('node-to-node authentication belongs to the simulated coordination layer; the database is unaffected');

export const impostor = defineFault({
  schema: z.object({ f: z.literal('impostor'), at: ms, credential: z.enum(IMPOSTOR_CREDENTIALS) }).strict(),
  knobs: {
    impostorPct: coordinationKnob(
      pct,
      'Chance (percent) per coordination tick that a process claiming a voter\'s name asks for votes with a credential that must not authenticate it (abstract consensus; 001 §56–§59, §214–§217).',
    ),
  },
  randomWhen: ['impostorPct'],
  draw: {
    on: 'coordination',
    at: (tick, mine, stream) => (stream.chance(mine.impostorPct) ? { f: 'impostor' as const, at: tick.at, credential: stream.pick(IMPOSTOR_CREDENTIALS) } : null),
  },
  apply: toCoordination,
  records: {
    impostor: { real: notTheDatabase, colour: '#8e44ad' },
    certificate: { real: notTheDatabase },
  },
});
