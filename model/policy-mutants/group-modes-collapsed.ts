// group-modes-collapsed — seed 000 §10–§17 (workflow concurrency groups: Queue runs one at a time
// in order, RejectNew refuses a run while one is active), §118–§122, §305. The group service
// treats every mode as AllowParallel: a second deploy of a Queue or RejectNew group starts while
// the first is still running.

import type { PolicyMutant } from './policy-mutant.ts';

export const groupModesCollapsed: PolicyMutant = {
  name: 'group-modes-collapsed',
  bug: 'concurrency groups in Queue and RejectNew mode start every run at once, as AllowParallel',
  source: '000 §10–§17, §118–§122, §305',
  rule: 'concurrency-group: Queue, RejectNew and CancelPrevious groups run one run at a time',
  invariants: ['concurrency-group'],
  scenarios: ['cancel-previous-non-supersedable', 'standard-mix'],
  policy: { enforceGroupModes: false },
};
