// A voter loses its durable consensus state (seed 001 §167–§169, §272): its disk is wiped or found
// corrupt, and it comes back after `downMs` with no term, no vote and no log. Message-level
// consensus only (`coordination.consensus: 'raft'`). Recorded as a `crash` of the voter and a
// `voter-state-loss` naming it. What the voter must do then is fail safe: never vote or stand for
// election again in this cluster, though it still follows and stores the log (sim/raft/).
// Knobs: `coordination.faults.voterStateLossPct` (a random bootstrap voter at each coordination tick),
// `voterStateLossDownMs`.

import { z } from 'zod';
import { toCoordination } from './coordination-fault.ts';
import { coordinationKnob, defineFault, ms, node, pct, simulatedOnly } from './package.ts';

const schema = z.object({ f: z.literal('voter-state-loss'), at: ms, node, downMs: ms }).strict();

export const voterStateLoss = defineFault({
  schema,
  knobs: {
    voterStateLossPct: coordinationKnob(pct, "Chance (percent) per coordination tick that a controller loses its durable consensus state (`consensus: 'raft'`; 001 §167–§169)."),
    voterStateLossDownMs: coordinationKnob(ms, 'Time a voter that lost its state stays down before it comes back, in ms.'),
  },
  randomWhen: ['voterStateLossPct'],
  draw: {
    on: 'coordination',
    at: (tick, mine, stream) =>
      stream.chance(mine.voterStateLossPct)
        ? { f: 'voter-state-loss' as const, at: tick.at, node: `c${stream.int(1, tick.controllers)}`, downMs: Math.max(1, mine.voterStateLossDownMs) }
        : null,
  },
  apply: toCoordination,
  records: { 'voter-state-loss': { real: simulatedOnly('the coordination layer is simulated; the database is unaffected'), colour: '#8e44ad' } },
});
