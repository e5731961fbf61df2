// A controller crash (seed 000 §302, §287): the process dies with its memory, and a new incarnation
// starts after `downMs` (recorded by the simulator as `restart`). Real: the controller's database
// sessions are terminated.

import { z } from 'zod';
import { defineFault, faultKnob, ms, node, pct, simulatedOnly } from './package.ts';

const schema = z.object({ f: z.literal('crash'), at: ms, node, downMs: ms }).strict();

export const crash = defineFault({
  schema,
  knobs: {
    crashProbabilityPct: faultKnob(pct, 'Chance (percent) that a controller crashes at each nemesis tick.'),
    restartDelayMs: faultKnob(ms, 'Time a crashed controller stays down before its next incarnation starts, in ms.', 'keep'),
  },
  randomWhen: ['crashProbabilityPct'],
  draw: {
    on: 'nemesis',
    at(tick, mine, stream) {
      if (!stream.chance(mine.crashProbabilityPct)) return null;
      return { f: 'crash' as const, at: tick.at, node: `c${stream.int(1, tick.controllers)}`, downMs: mine.restartDelayMs };
    },
  },
  async apply(world, fault) {
    const node = world.controller(fault.node);
    if (node === undefined || node.down) return;
    await world.record('crash', { node: node.name, process: node.proc });
    world.crash(node, fault.downMs);
  },
  records: {
    crash: { real: (target, value) => target.killSessions(value), colour: '#d9534f', endedBy: 'restart' },
    restart: { real: simulatedOnly('the simulator starts the new controller incarnation, which opens its own sessions') },
  },
});
