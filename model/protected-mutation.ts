// Protected mutation (§25–§30, §66–§70, §161–§165): the write carries the guard epoch (when
// federated or role-guarded), the fencing token and the expected aggregate version, and each is
// checked. Lease ownership never replaces the aggregate version: both are required.

import { assert } from './assert.ts';
import type { MutateCommand } from './commands.ts';
import type { MutateResult } from './outcomes.ts';
import { mapWith } from './persistent.ts';
import { checkGuard, isFenced } from './role-epoch.ts';
import { liveLease, type AggregateVersion, type ModelState, type Transition } from './state.ts';

export function aggregateVersion(state: ModelState, scope: string, aggregate: string): AggregateVersion | undefined {
  return state.aggregates.get(scope)?.get(aggregate);
}

export function mutate(initial: ModelState, command: MutateCommand, now: number): Transition<MutateResult> {
  const guarded = checkGuard(initial, command.guard);
  if (isFenced(guarded)) return { state: initial, outcome: guarded };
  const state = guarded;
  const live = liveLease(state, command.scope, now);
  if (live === null || live.token !== command.token || live.holder !== command.holder) {
    return { state, outcome: { kind: 'StaleFence', currentToken: live?.token ?? null } };
  }
  const current = aggregateVersion(state, command.scope, command.aggregate);
  const currentVersion = current?.version ?? 0;
  if (currentVersion !== command.expectedVersion) return { state, outcome: { kind: 'StaleVersion', currentVersion } };
  assert(current === undefined || current.lastToken <= command.token, 'accepted tokens never go backwards on an aggregate');
  const next: AggregateVersion = { version: command.expectedVersion + 1, lastToken: command.token };
  const byAggregate = mapWith(state.aggregates.get(command.scope) ?? new Map<string, AggregateVersion>(), command.aggregate, next);
  return {
    state: { ...state, aggregates: mapWith(state.aggregates, command.scope, byAggregate) },
    outcome: { kind: 'Accepted', version: next.version, token: command.token },
  };
}
