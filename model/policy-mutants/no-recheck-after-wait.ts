// no-recheck-after-wait — seed 003 ("lock waits: re-check pending ownership after AcquireLock
// returns held ... when the waiter was displaced mid-acquire"), seed 000 §86–§90, §157–§160. A
// waiter that is told it got the lease takes that answer as proof of current ownership: it does
// not re-check, so a grant whose reply sat out a pause or a slow network drives its first side
// effect after the lease already expired.

import type { PolicyMutant } from './policy-mutant.ts';

export const noRecheckAfterWait: PolicyMutant = {
  name: 'no-recheck-after-wait',
  bug: 'a waiter that got the lease trusts the grant as a fresh confirmation instead of re-checking ownership',
  source: '003 displaced-waiter; 000 §86–§90, §157–§160',
  rule: 'lease-exclusive: a holder starts no side effect under a lease that has expired (re-check after the wait)',
  invariants: ['lease-exclusive', 'one-owner-per-epoch'],
  scenarios: ['displaced-waiter-recheck'],
  policy: { recheckAfterWait: false },
};
