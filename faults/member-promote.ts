// An operator asks to promote a caught-up learner to voter (seed 001 §62–§63). The leader commits
// it, or the request is retried until the horizon and then recorded as `membership-rejected`.
// Scripted only.

import { membershipFault } from './coordination-fault.ts';
import { node } from './package.ts';

export const memberPromote = membershipFault('member-promote', node);
