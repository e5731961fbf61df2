// A network partition between two nodes, both ways or one way, for a while (seed 000 §302, §160);
// its end is a `heal` of the same link. Real: a fault-proxy toxic on the link between a client and
// the database.

import { z } from 'zod';
import { defineFault, faultKnob, ms, node, pct } from './package.ts';

const schema = z.object({ f: z.literal('partition'), at: ms, durationMs: ms, from: node, to: node, oneWay: z.boolean().default(false) }).strict();

export const partition = defineFault({
  schema,
  knobs: {
    partitionProbabilityPct: faultKnob(pct, 'Chance (percent) that a random partition starts at each nemesis tick.'),
    oneWayPartitionPct: faultKnob(pct, 'Chance (percent) that a random partition is one-way rather than both ways.'),
    partitionMsMax: faultKnob(ms, 'Longest random partition, in ms.'),
  },
  randomWhen: ['partitionProbabilityPct'],
  draw: {
    on: 'nemesis',
    at(tick, mine, stream) {
      if (!stream.chance(mine.partitionProbabilityPct)) return null;
      const from = stream.pick(tick.nodes);
      let to = stream.pick(tick.nodes);
      if (to === from) to = from === 'db' ? 'provider' : 'db';
      return { f: 'partition' as const, at: tick.at, from, to, oneWay: stream.chance(mine.oneWayPartitionPct), durationMs: stream.int(1, Math.max(1, mine.partitionMsMax)) };
    },
  },
  async apply(world, fault) {
    world.network.block(fault.from, fault.to);
    if (!fault.oneWay) world.network.block(fault.to, fault.from);
    await world.record('partition', { from: fault.from, to: fault.to, oneWay: fault.oneWay, durationMs: fault.durationMs });
    world.endAt(world.now + Math.max(1, fault.durationMs));
  },
  async end(world, fault) {
    world.network.unblock(fault.from, fault.to);
    if (!fault.oneWay) world.network.unblock(fault.to, fault.from);
    await world.record('heal', { from: fault.from, to: fault.to });
  },
  records: {
    partition: { real: (target, value) => target.partition(value), colour: '#f2b134', endedBy: 'heal' },
    heal: { real: (target, value) => target.heal(value) },
  },
});
