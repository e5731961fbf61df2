// learner-promoted-before-caught-up — seed 001 §62 ("join as learner, catch up, verify health,
// promote to voter"), §338 ("New member joins as learner before voter"). An operator's promotion
// is committed as soon as it is asked for, whether or not the learner has caught up: a voter joins
// the majority without the committed state.

import type { PolicyMutant } from './policy-mutant.ts';

export const learnerPromotedBeforeCaughtUp: PolicyMutant = {
  name: 'learner-promoted-before-caught-up',
  bug: 'a learner is promoted to voter before it has caught up with the committed state',
  source: '001 §62, §338',
  rule: 'learner-before-voter: a learner is promoted only once it knows the committed epoch',
  invariants: ['learner-before-voter'],
  scenarios: ['membership-change'],
  policy: { promoteWhenCaughtUp: false },
};
