// A database crash (seed 000 §286): the server stops, every connection breaks, and it comes back
// after `downMs` with what it had committed (`db-restart`). Real: `pg_ctl stop -m immediate`, then
// a start with crash recovery.

import { z } from 'zod';
import { defineFault, faultKnob, ms, pct } from './package.ts';

const schema = z.object({ f: z.literal('db-crash'), at: ms, downMs: ms }).strict();

export const dbCrash = defineFault({
  schema,
  knobs: {
    dbCrashProbabilityPct: faultKnob(pct, 'Chance (percent) that the database crashes at each nemesis tick.'),
    dbDownMs: faultKnob(ms, 'Time the crashed database stays down, in ms.', 'keep'),
  },
  randomWhen: ['dbCrashProbabilityPct'],
  draw: {
    on: 'nemesis',
    at: (tick, mine, stream) => (stream.chance(mine.dbCrashProbabilityPct) ? { f: 'db-crash' as const, at: tick.at, downMs: Math.max(1, mine.dbDownMs) } : null),
  },
  async apply(world, fault) {
    if (world.database.down) return;
    world.database.setDown(true);
    await world.record('db-crash', { downMs: fault.downMs });
    world.endAt(world.now + Math.max(1, fault.downMs));
  },
  async end(world) {
    if (!world.database.down) return;
    world.database.setDown(false);
    await world.record('db-restart', {});
  },
  records: {
    'db-crash': { real: (target) => target.crashPrimary(), colour: '#d9534f', endedBy: 'db-restart' },
    'db-restart': { real: (target) => target.restartPrimary(), movesPrimary: true },
  },
});
