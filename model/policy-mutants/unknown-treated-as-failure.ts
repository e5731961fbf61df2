// unknown-treated-as-failure — seed 000 §52–§53 ("Unknown Must Not Be Converted to New Intent
// Automatically"), §285, §315 ("Unknown idempotency outcome does not create a new operation
// automatically"). The controller reads an unknown outcome as a failure and starts the work over
// as a new operation.

import type { PolicyMutant } from './policy-mutant.ts';

export const unknownTreatedAsFailure: PolicyMutant = {
  name: 'unknown-treated-as-failure',
  bug: 'an unknown outcome is taken as a failure and the work restarts as a new operation',
  source: '000 §52–§53, §285',
  rule: 'no-blind-retry: an unknown outcome is never turned into a new attempt without inspection',
  invariants: ['no-blind-retry'],
  scenarios: ['provider-timeout-unknown', 'idempotency-different-request', 'standard-mix'],
  policy: { unknownIsFailure: true },
};
