// An operator asks to remove a node, or whoever leads (`leader`), from the configuration
// (seed 001 §64–§65). The leader commits it, or the request is retried until the horizon and then
// recorded as `membership-rejected`. Scripted only.

import { z } from 'zod';
import { defineFault, ms, node, toCoordination } from './package.ts';

const schema = z.object({ f: z.literal('member-remove'), at: ms, node: z.union([node, z.literal('leader')]) }).strict();

export const memberRemove = defineFault({
  schema,
  apply: toCoordination,
  records: {},
});
