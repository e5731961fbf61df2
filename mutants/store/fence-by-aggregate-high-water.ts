// fence-by-aggregate-high-water — seed 000 §25–§30 ("Lock Alone Is Not Enough": the resource
// checks the token), §66–§70, §281, and the classic storage-side fencing shortcut. The write is
// fenced against the highest token the aggregate has accepted, not against the live lease: a
// holder whose lease expired and was re-granted still writes, as long as its successor has not
// written yet.

import type { MutateCommand } from '../../model/commands.ts';
import type { MutateResult } from '../../model/outcomes.ts';
import { aggregateVersion } from '../../model/protected-mutation.ts';
import type { ModelState, Transition } from '../../model/state.ts';
import { modelMutant } from './model-store.ts';
import { guarded, writeAggregate } from './rule-book-mutate.ts';

function fencedByHighWater(state: ModelState, command: MutateCommand): Transition<MutateResult> {
  return guarded(state, command, (checked) => {
    const highest = aggregateVersion(checked, command.scope, command.aggregate)?.lastToken ?? 0;
    if (command.token < highest) return { state: checked, outcome: { kind: 'StaleFence', currentToken: highest } };
    return writeAggregate(checked, command);
  });
}

export const fenceByAggregateHighWater = modelMutant('fence-by-aggregate-high-water', ['Mutate'], (state, command) => fencedByHighWater(state, command));
