// An operator asks to promote a caught-up learner to voter (seed 001 §62–§63). The leader commits
// it, or the request is retried until the horizon and then recorded as `membership-rejected`.
// Scripted only.

import { z } from 'zod';
import { defineFault, ms, node, toCoordination } from './package.ts';

const schema = z.object({ f: z.literal('member-promote'), at: ms, node: node }).strict();

export const memberPromote = defineFault({
  schema,
  apply: toCoordination,
  records: {},
});
