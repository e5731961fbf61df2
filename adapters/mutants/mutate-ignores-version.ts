// mutate-ignores-version — seed 000 §66–§70 ("a lease does not replace the aggregate version
// check"). The protected write checks the lease and then writes the next version whatever version
// the caller expected, as `UPDATE … SET version = version + 1` without `AND version = $expected`
// does: a writer that read an older version overwrites a change it never saw.

import type { MutateCommand } from '../../model/commands.ts';
import type { MutateResult } from '../../model/outcomes.ts';
import { aggregateVersion } from '../../model/protected-mutation.ts';
import { liveLease, type ModelState, type Transition } from '../../model/state.ts';
import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';
import { guarded, writeAggregate } from './rule-book-mutate.ts';

function mutateAnyVersion(state: ModelState, command: MutateCommand, now: number): Transition<MutateResult> {
  return guarded(state, command, (checked) => {
    const live = liveLease(checked, command.scope, now);
    if (live === null || live.token !== command.token || live.holder !== command.holder) return { state: checked, outcome: { kind: 'StaleFence', currentToken: live?.token ?? null } };
    const current = aggregateVersion(checked, command.scope, command.aggregate)?.version ?? 0;
    return writeAggregate(checked, { ...command, expectedVersion: current });
  });
}

export const mutateIgnoresVersion: Mutant = {
  name: 'mutate-ignores-version',
  bug: 'Mutate checks the lease but not the expected version: it writes the next version over a change the caller never saw',
  source: '000 §66–§70',
  rule: 'Protected mutation: aggregate version differs from expectedVersion → StaleVersion; else the version becomes expectedVersion + 1',
  invariants: ['no-lost-update'],
  scenarios: ['provider-fencing', 'stalled-refresh'],
  store: () => modelMutantStore('mutate-ignores-version', ['Mutate'], (state, command, now) => mutateAnyVersion(state, command, now)),
};
