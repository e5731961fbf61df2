// Restore from an older backup (seed 000 §272–§276): the durable state becomes the image of
// `snapshotAgeMs` ago, and with the mitigation the recovery epoch advances. Real: a data
// directory copy is taken ahead of time (the `backup` phase) and the primary restored from it.

import { z } from 'zod';
import { imageReplacement } from './image-replacement.ts';
import { defineFault, ms } from './package.ts';

const schema = z.object({ f: z.literal('db-restore'), at: ms, snapshotAgeMs: ms }).strict();

export const dbRestore = defineFault({
  schema,
  ...imageReplacement({ f: 'db-restore', age: 'snapshotAgeMs', phase: 'backup', act: (target, backupOnly) => target.restore(backupOnly), colour: '#8e44ad', what: 'restore' }),
});
