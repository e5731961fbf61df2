// voter-without-learner-stage — seed 001 §16–§17, §62–§63 ("join as learner, promote once caught
// up"), §157, §338 ("New member joins as learner before voter"). Adding a member commits it as a
// voter at once: the majority grows by a node that has none of the log and votes immediately.

import type { PolicyMutant } from './policy-mutant.ts';

export const voterWithoutLearnerStage: PolicyMutant = {
  name: 'voter-without-learner-stage',
  bug: 'a new member is added directly as a voter, skipping the learner stage',
  source: '001 §16–§17, §62–§63, §157, §338',
  rule: 'learner-before-voter: every voter outside the bootstrap configuration was a learner first',
  invariants: ['learner-before-voter'],
  scenarios: ['membership-change'],
  policy: { learnerFirst: false },
};
