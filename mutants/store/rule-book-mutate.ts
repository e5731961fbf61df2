// `Mutate` exactly as model/SEMANTICS.md states it, without the reference model's internal
// assertion that accepted tokens never go backwards on an aggregate. That assertion holds in
// every state the correct model can reach; a store-level mutant reaches other states (a lease
// row under an old token), where a real store with the same bug would simply accept the write.
// Its steps (the guard, the fence against a lease, the versioned write) are what the Mutate
// mutants keep around the one step each of them changes.

import type { MutateCommand } from '../../model/commands.ts';
import type { Lease, MutateResult } from '../../model/outcomes.ts';
import { mapWith } from '../../model/persistent.ts';
import { aggregateVersion } from '../../model/protected-mutation.ts';
import { checkGuard, isFenced } from '../../model/role-epoch.ts';
import { liveLease, type AggregateVersion, type ModelState, type Transition } from '../../model/state.ts';

/** The guard check of `Mutate` (rule book step 1), then `write` on the guarded state. */
export function guarded(
  state: ModelState,
  command: MutateCommand,
  write: (state: ModelState, command: MutateCommand) => Transition<MutateResult>,
): Transition<MutateResult> {
  const checked = checkGuard(state, command.guard);
  return isFenced(checked) ? { state, outcome: checked } : write(checked, command);
}

/** The aggregate-version half of `Mutate` (§66–§70): expected version, then the write. */
export function writeAggregate(state: ModelState, command: MutateCommand): Transition<MutateResult> {
  const currentVersion = aggregateVersion(state, command.scope, command.aggregate)?.version ?? 0;
  if (currentVersion !== command.expectedVersion) return { state, outcome: { kind: 'StaleVersion', currentVersion } };
  const next: AggregateVersion = { version: currentVersion + 1, lastToken: command.token };
  const byAggregate = mapWith(state.aggregates.get(command.scope) ?? new Map<string, AggregateVersion>(), command.aggregate, next);
  return {
    state: { ...state, aggregates: mapWith(state.aggregates, command.scope, byAggregate) },
    outcome: { kind: 'Accepted', version: next.version, token: command.token },
  };
}

/**
 * `Mutate` fenced by the lease `leaseOf` finds in the guarded state: the guard, then StaleFence
 * unless that lease has the write's token and holder, then `write`.
 */
export function fencedBy(
  state: ModelState,
  command: MutateCommand,
  leaseOf: (checked: ModelState) => Lease | null,
  write: (state: ModelState, command: MutateCommand) => Transition<MutateResult> = writeAggregate,
): Transition<MutateResult> {
  return guarded(state, command, (checked) => {
    const lease = leaseOf(checked);
    if (lease === null || lease.token !== command.token || lease.holder !== command.holder) {
      return { state: checked, outcome: { kind: 'StaleFence', currentToken: lease?.token ?? null } };
    }
    return write(checked, command);
  });
}

/** The whole rule-book `Mutate`: guard, fencing (live lease with this token and holder), version. */
export function ruleBookMutate(state: ModelState, command: MutateCommand, now: number): Transition<MutateResult> {
  return fencedBy(state, command, (checked) => liveLease(checked, command.scope, now));
}
