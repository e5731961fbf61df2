// Role epochs (seed 001 §92–§95; seed 000 §163–§168 for federation site authority): a guard
// carries the epoch its holder was minted under; an older epoch than the store has seen is
// fenced, a newer or equal one raises the stored epoch. The raise stands whatever the rest of
// the command decides (model/SEMANTICS.md "Leases", step 1).

import { assert } from './assert.ts';
import type { AdvanceRoleEpochCommand, RoleGuard } from './commands.ts';
import type { AdvanceRoleEpochResult } from './outcomes.ts';
import { mapWith } from './persistent.ts';
import type { ModelState, Transition } from './state.ts';

export interface Fenced {
  readonly kind: 'Fenced';
  readonly role: string;
  readonly currentEpoch: number;
}

function storedRoleEpoch(state: ModelState, role: string): number {
  return state.roleEpochs.get(role) ?? 0;
}

function raise(state: ModelState, role: string, epoch: number): ModelState {
  assert(epoch >= storedRoleEpoch(state, role), 'a role epoch is never lowered');
  return epoch === storedRoleEpoch(state, role) && state.roleEpochs.has(role)
    ? state
    : { ...state, roleEpochs: mapWith(state.roleEpochs, role, epoch) };
}

/**
 * Whether `epoch` may raise or pass the stored one. An epoch below it is stale; one that is not a
 * finite number (NaN, ±Infinity) proves no epoch at all and is fenced the same way, writing nothing
 * (model/SEMANTICS.md, clarification 15).
 */
function passes(epoch: number, stored: number): boolean {
  return Number.isFinite(epoch) && epoch >= stored;
}

/** Step 1 of Acquire and Mutate: `Fenced`, or the state with the guard's epoch recorded. */
export function checkGuard(state: ModelState, guard: RoleGuard | undefined): Fenced | ModelState {
  if (guard === undefined) return state;
  const stored = storedRoleEpoch(state, guard.role);
  if (!passes(guard.epoch, stored)) return { kind: 'Fenced', role: guard.role, currentEpoch: stored };
  return raise(state, guard.role, guard.epoch);
}

export function isFenced(value: Fenced | ModelState): value is Fenced {
  return 'kind' in value;
}

export function advanceRoleEpoch(state: ModelState, command: AdvanceRoleEpochCommand): Transition<AdvanceRoleEpochResult> {
  const stored = storedRoleEpoch(state, command.role);
  if (!passes(command.epoch, stored)) {
    return { state, outcome: { kind: 'Fenced', role: command.role, currentEpoch: stored } };
  }
  return {
    state: raise(state, command.role, command.epoch),
    outcome: { kind: 'RoleEpochAdvanced', role: command.role, epoch: command.epoch },
  };
}
