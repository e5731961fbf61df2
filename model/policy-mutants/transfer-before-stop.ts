// transfer-before-stop — seed 001 §270 (drain the leader cleanly), §294 (stop order: mark the role
// inactive, cancel leader loops, invalidate the local epoch). A drained Raft leader hands
// leadership to a follower and goes on scheduling until it hears of the new term.

import type { PolicyMutant } from './policy-mutant.ts';

export const transferBeforeStop: PolicyMutant = {
  name: 'transfer-before-stop',
  bug: 'a drained Raft leader hands leadership on before it stops its role, and keeps scheduling',
  source: '001 §270, §294',
  rule: 'drained-leader-stops: no guarded lease creation by a leader after it handed leadership on',
  invariants: ['drained-leader-stops'],
  scenarios: ['raft-leader-transfer'],
  policy: { stopRoleBeforeTransfer: false },
};
