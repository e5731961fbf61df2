// cancel-non-supersedable — seed 000 §119–§121 ("CancelPrevious: Safe only for operations
// declared supersedable"; production deploy, release publish and DB migration are not), §17,
// §315. CancelPrevious cancels whatever runs in the group, protected operations included.

import type { PolicyMutant } from './policy-mutant.ts';

export const cancelNonSupersedable: PolicyMutant = {
  name: 'cancel-non-supersedable',
  bug: 'CancelPrevious cancels a running operation that is not supersedable',
  source: '000 §17, §119–§121',
  rule: 'release-after-reconcile: CancelPrevious never cancels a non-supersedable run',
  invariants: ['release-after-reconcile'],
  scenarios: ['cancel-previous-non-supersedable', 'standard-mix'],
  policy: { cancelNonSupersedable: true },
};
