// guard-before-commit — seed 001 §83 and §93 (the epoch a leader owns is the one consensus
// committed, and it reaches the store before any lease is created under it), §243 (the
// coordination epoch is never behind the store's). A Raft leader takes its role, and advances the
// store's epoch, as soon as it appends its entry; when that entry is lost, the next leader's
// committed epoch can be below what the store already holds.

import type { PolicyMutant } from './policy-mutant.ts';

export const guardBeforeCommit: PolicyMutant = {
  name: 'guard-before-commit',
  bug: 'a Raft leader takes its role from its own uncommitted entry',
  source: '001 §83, §93, §243',
  rule: 'cluster-doctor: the store never holds a role epoch above the one the coordination state committed',
  invariants: ['cluster-doctor', 'one-leader-per-term'],
  scenarios: ['raft-old-term-commit'],
  policy: { guardAfterCommit: false },
};
