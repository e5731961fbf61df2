// Restore from an older backup (seed 000 §272–§276): the durable state becomes the image of
// `snapshotAgeMs` ago, and with the mitigation the recovery epoch advances. Real: a data
// directory copy is taken ahead of time (the `backup` phase) and the primary restored from it.

import { z } from 'zod';
import { defineFault, ms } from './package.ts';

const schema = z.object({ f: z.literal('db-restore'), at: ms, snapshotAgeMs: ms }).strict();

export const dbRestore = defineFault({
  schema,
  image: { ageMs: (fault) => fault.snapshotAgeMs, prepare: { phase: 'backup' } },
  async apply(world, fault) {
    await world.replaceImage('db-restore', fault.snapshotAgeMs, { snapshotAgeMs: fault.snapshotAgeMs });
  },
  records: {
    'db-restore': {
      real: (target, value) => (value['skipped'] === true ? Promise.resolve({ kind: 'simulated-only', reason: 'the simulator skipped this restore' }) : target.restore(value['phase'] === 'backup')),
      colour: '#8e44ad',
      movesPrimary: true,
    },
  },
});
