// mutate-ignores-expiry — seed 000 §25–§31 (a lease is bounded; a holder that woke up after its
// expiry is not the owner), §66–§70, §281. The protected write compares token and holder with the
// scope's lease row but never asks whether that row is still live: a holder that paused past its
// expiry writes as long as nobody has replaced the row yet.

import type { MutateCommand } from '../../model/commands.ts';
import type { MutateResult } from '../../model/outcomes.ts';
import type { ModelState, Transition } from '../../model/state.ts';
import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';
import { guarded, writeAggregate } from './rule-book-mutate.ts';

function mutateByRow(state: ModelState, command: MutateCommand): Transition<MutateResult> {
  return guarded(state, command, (checked) => {
    const row = checked.leases.get(command.scope);
    if (row === undefined || row.token !== command.token || row.holder !== command.holder) return { state: checked, outcome: { kind: 'StaleFence', currentToken: row?.token ?? null } };
    return writeAggregate(checked, command);
  });
}

export const mutateIgnoresExpiry: Mutant = {
  name: 'mutate-ignores-expiry',
  bug: 'Mutate accepts the token and holder of the scope’s lease row even after that lease expired',
  source: '000 §25–§31, §66–§70, §281',
  rule: 'Protected mutation: no live lease (now < expiresAt) with that token and holder → StaleFence',
  invariants: ['lease-exclusive'],
  scenarios: ['paused-holder-expiry', 'stale-holder', 'renewal-failure-stops-holder'],
  store: () => modelMutantStore('mutate-ignores-expiry', ['Mutate'], (state, command) => mutateByRow(state, command)),
};
