// A controller pause (GC-style, seed 000 §302): the process stops for a while and then carries on
// from where it was, with its beliefs; its end is a `resume`. Simulated only.

import { z } from 'zod';
import { defineFault, faultKnob, ms, node, pct, simulatedOnly } from './package.ts';

const schema = z.object({ f: z.literal('pause'), at: ms, node, durationMs: ms }).strict();

export const pause = defineFault({
  schema,
  knobs: {
    pauseProbabilityPct: faultKnob(pct, 'Chance (percent) that a controller pauses (GC-style) at each nemesis tick.'),
    pauseMsMax: faultKnob(ms, 'Longest random controller pause, in ms.'),
  },
  randomWhen: ['pauseProbabilityPct'],
  draw: {
    on: 'nemesis',
    at: (tick, mine, stream) => (stream.chance(mine.pauseProbabilityPct) ? { f: 'pause' as const, at: tick.at, node: `c${stream.int(1, tick.controllers)}`, durationMs: stream.int(1, Math.max(1, mine.pauseMsMax)) } : null),
  },
  async apply(world, fault) {
    const node = world.controller(fault.node);
    if (node === undefined || node.down) return;
    node.pausedUntil = Math.max(node.pausedUntil, world.now + fault.durationMs);
    await world.record('pause', { node: node.name, process: node.proc, durationMs: fault.durationMs });
    world.endAt(node.pausedUntil);
  },
  async end(world, fault) {
    const node = world.controller(fault.node);
    if (node !== undefined && node.pausedUntil <= world.now) await world.record('resume', { node: node.name, process: node.proc });
  },
  records: {
    pause: { real: simulatedOnly('a controller pause is a pause of the simulated controller; the database sees only a quiet session'), colour: '#9b7fd1', endedBy: 'resume' },
    resume: { real: simulatedOnly('resuming a paused controller happens in the simulator') },
  },
});
