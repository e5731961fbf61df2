// Message loss: every message has a chance of being lost (the profile's `messageLossPct`), and a
// scripted step raises that chance for a while. Real: a reset or latency toxic on each affected
// database connection.

import { z } from 'zod';
import { defineFault, faultKnob, ms, pct } from './package.ts';

const schema = z.object({ f: z.literal('message-loss'), at: ms, durationMs: ms, pct }).strict();

export const messageLoss = defineFault({
  schema,
  knobs: { messageLossPct: faultKnob(pct, 'Chance (percent) that any one message is lost.') },
  randomWhen: ['messageLossPct'],
  async apply(world, fault) {
    world.network.extraLossPct = Math.min(100, world.network.extraLossPct + fault.pct);
    await world.record('message-loss', { pct: fault.pct, durationMs: fault.durationMs });
    world.endAt(world.now + Math.max(1, fault.durationMs));
  },
  async end(world, fault) {
    world.network.extraLossPct = Math.max(0, world.network.extraLossPct - fault.pct);
  },
  records: { 'message-loss': { real: (target, value) => target.messageLoss(value) } },
});
