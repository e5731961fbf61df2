// An operator asks to add a node as a learner (seed 001 §59–§62). The leader commits it, or the
// request is retried until the horizon and then recorded as `membership-rejected`. Scripted only.

import { z } from 'zod';
import { defineFault, ms, node, toCoordination } from './package.ts';

const schema = z.object({ f: z.literal('member-add'), at: ms, node: node }).strict();

export const memberAdd = defineFault({
  schema,
  apply: toCoordination,
  records: {},
});
