// An operator asks to add a node as a learner (seed 001 §59–§62). The leader commits it, or the
// request is retried until the horizon and then recorded as `membership-rejected`. Scripted only.

import { membershipFault } from './coordination-fault.ts';
import { node } from './package.ts';

export const memberAdd = membershipFault('member-add', node);
