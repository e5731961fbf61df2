// mutate-ignores-version — seed 000 §66–§70 ("a lease does not replace the aggregate version
// check"). The protected write checks the lease and then writes the next version whatever version
// the caller expected, as `UPDATE … SET version = version + 1` without `AND version = $expected`
// does: a writer that read an older version overwrites a change it never saw.

import type { MutateCommand } from '../../model/commands.ts';
import type { MutateResult } from '../../model/outcomes.ts';
import { aggregateVersion } from '../../model/protected-mutation.ts';
import { liveLease, type ModelState, type Transition } from '../../model/state.ts';
import { modelMutant } from './model-store.ts';
import { fencedBy, writeAggregate } from './rule-book-mutate.ts';

/** The write of the next version, whatever version the caller expected. */
function writeNextVersion(state: ModelState, command: MutateCommand): Transition<MutateResult> {
  const current = aggregateVersion(state, command.scope, command.aggregate)?.version ?? 0;
  return writeAggregate(state, { ...command, expectedVersion: current });
}

export const mutateIgnoresVersion = modelMutant('mutate-ignores-version', ['Mutate'], (state, command, now) =>
  fencedBy(state, command, (checked) => liveLease(checked, command.scope, now), writeNextVersion),
);
