// handler-outlives-stalled-refresh — seed 002 "Why staged" item 2 ("the burst refresh loop must be
// stoppable while a member runs (bound the ExtendLock call)"), seed 003 0892821 ("no holder
// outlives a lease the runtime can no longer maintain"), seed 000 §157–§160 (a holder cannot
// assume its lease remains valid). The handler trusts its refresh loop: it stops only when a
// renewal comes back refused. A renewal call that hangs (held in the network, cut off by a
// partition) reports nothing, so the handler keeps working after its lease has expired and may
// have passed to the next holder.

import type { PolicyMutant } from './policy-mutant.ts';

export const handlerOutlivesStalledRefresh: PolicyMutant = {
  name: 'handler-outlives-stalled-refresh',
  bug: 'a holder\'s handler stops only on a refused renewal, so a renewal call that hangs lets it work past its lease',
  source: '002 "Why staged" 2; 003 commit 0892821; 000 §157–§160',
  rule: 'work-within-lease: a handler works only within its lease\'s local validity window, whatever its refresh call is waiting for',
  invariants: ['work-within-lease'],
  scenarios: ['stalled-refresh'],
  policy: { boundWorkByLease: false },
};
