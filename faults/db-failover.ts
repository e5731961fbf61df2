// Failover to a lagging replica (seed 000 §272–§276, §302): the durable state becomes the image of
// `lagMs` ago, connections break, and with the mitigation the recovery epoch advances. Real: the
// replication link is cut (ahead of time, in the `cut` phase), the replica promoted and the clients
// repointed.

import { z } from 'zod';
import { imageReplacement } from './image-replacement.ts';
import { defineFault, faultKnob, ms, pct } from './package.ts';

const schema = z.object({ f: z.literal('db-failover'), at: ms, lagMs: ms }).strict();

export const dbFailover = defineFault({
  schema,
  knobs: {
    dbFailoverProbabilityPct: faultKnob(pct, 'Chance (percent) of a failover to a lagging replica at each nemesis tick.'),
    dbFailoverLagMs: faultKnob(ms, 'Replication lag of the promoted replica: commits of the last `dbFailoverLagMs` are lost.'),
  },
  randomWhen: ['dbFailoverProbabilityPct'],
  draw: {
    on: 'nemesis',
    at: (tick, mine, stream) => (stream.chance(mine.dbFailoverProbabilityPct) ? { f: 'db-failover' as const, at: tick.at, lagMs: mine.dbFailoverLagMs } : null),
  },
  ...imageReplacement({ f: 'db-failover', age: 'lagMs', phase: 'cut', act: (target, cutOnly) => target.failover(cutOnly), colour: '#c0392b', what: 'failover' }),
});
