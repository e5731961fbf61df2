// mutate-without-role-guard — seed 001 §34–§35 (release and deployment coordinators), §78–§79,
// §94 ("promotion carries the role guard"), §264–§265. The protected write accepts the caller's
// guard without comparing it with the stored role epoch (and without recording it): a deposed
// coordinator still promotes a channel after its successor's epoch reached the store.

import type { MutateCommand } from '../../model/commands.ts';
import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';
import { ruleBookMutate } from './rule-book-mutate.ts';

function withoutGuard(command: MutateCommand): MutateCommand {
  const { guard: _ignored, ...rest } = command;
  return rest;
}

export const mutateWithoutRoleGuard: Mutant = {
  name: 'mutate-without-role-guard',
  bug: 'Mutate ignores the role guard: a promotion under a coordinator epoch older than the stored one is accepted',
  source: '001 §34–§35, §78–§79, §94, §264–§265',
  rule: 'Protected mutation: guard as in Acquire step 1 (guard.epoch < stored → Fenced)',
  invariants: ['no-split-promotion', 'fenced-stale-leader'],
  scenarios: ['release-coordinator-epoch', 'deployment-coordinator-epoch'],
  store: () => modelMutantStore('mutate-without-role-guard', ['Mutate'], (state, command, now) => ruleBookMutate(state, withoutGuard(command), now)),
};
