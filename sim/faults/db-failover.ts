// Failover to a lagging replica (seed 000 §272–§276, §302): the durable state becomes the image of
// `lagMs` ago, connections break, and with the mitigation the recovery epoch advances. Real: the
// replication link is cut (ahead of time, in the `cut` phase), the replica promoted and the clients
// repointed.

import { z } from 'zod';
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
  image: { ageMs: (fault) => fault.lagMs, prepare: { phase: 'cut' } },
  async apply(world, fault) {
    await world.replaceImage('db-failover', fault.lagMs, { lagMs: fault.lagMs });
  },
  records: {
    'db-failover': {
      real: (target, value) => (value['skipped'] === true ? Promise.resolve({ kind: 'simulated-only', reason: 'the simulator skipped this failover' }) : target.failover(value['phase'] === 'cut')),
      colour: '#c0392b',
      movesPrimary: true,
    },
  },
});
