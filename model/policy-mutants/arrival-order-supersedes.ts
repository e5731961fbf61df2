// arrival-order-supersedes — seed 003 ("A delivery delayed in its prelude (validation, dedupe,
// routing) could register after — and displace — a waiter admitted later ... Deliveries now carry
// a dispatch admission sequence; registerPending rejects registrations older than the current
// waiter"), seed 000 §10–§17, §119–§121. The CancelPrevious group orders runs by when they reach
// it: a run whose controller was busy or paused arrives late and cancels the newer run.

import type { PolicyMutant } from './policy-mutant.ts';

export const arrivalOrderSupersedes: PolicyMutant = {
  name: 'arrival-order-supersedes',
  bug: 'CancelPrevious lets the run that arrives last win, so an old run delayed on its way supersedes a newer one',
  source: '003 admission-order (delayed registration displaces a newer waiter); 000 §10–§17, §119–§121',
  rule: 'concurrency-group: in CancelPrevious the newest admission wins; no run supersedes one admitted after it',
  invariants: ['concurrency-group'],
  scenarios: ['cancel-previous-non-supersedable'],
  policy: { supersedeByAdmission: false },
};
