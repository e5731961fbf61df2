// mutate-without-role-guard — seed 001 §34–§35 (release and deployment coordinators), §78–§79,
// §94 ("promotion carries the role guard"), §264–§265. The protected write accepts the caller's
// guard without comparing it with the stored role epoch (and without recording it): a deposed
// coordinator still promotes a channel after its successor's epoch reached the store.

import { withoutGuard } from './lease-without-scheduler-epoch.ts';
import { modelMutant } from './model-store.ts';
import { ruleBookMutate } from './rule-book-mutate.ts';

export const mutateWithoutRoleGuard = modelMutant('mutate-without-role-guard', ['Mutate'], (state, command, now) => ruleBookMutate(state, withoutGuard(command), now));
