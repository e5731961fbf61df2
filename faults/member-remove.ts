// An operator asks to remove a node, or whoever leads (`leader`), from the configuration
// (seed 001 §64–§65). The leader commits it, or the request is retried until the horizon and then
// recorded as `membership-rejected`. Scripted only.

import { z } from 'zod';
import { membershipFault } from './coordination-fault.ts';
import { node } from './package.ts';

export const memberRemove = membershipFault('member-remove', z.union([node, z.literal('leader')]));
