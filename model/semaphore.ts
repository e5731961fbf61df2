// Capacity semaphores (§93–§98): a scope with capacity > 1. Units in use count live permits and
// unexpired Pending/Active reservations together, so permits and reservations can never jointly
// exceed the capacity (§207).

import { assert } from './assert.ts';
import type { AcquirePermitCommand, DefineCapacityCommand, ReleasePermitCommand } from './commands.ts';
import type { AcquirePermitResult, DefineCapacityResult, Permit, RejectReason, ReleasePermitResult, UnitsInUse } from './outcomes.ts';
import { mapWith, mapWithout } from './persistent.ts';
import { isHolding } from './reservation-state.ts';
import { isBlocked, type ModelState, type Transition } from './state.ts';
import { isValidCapacity, isValidId, isValidTtl, isValidUnits } from './validation.ts';

export function unitsInUse(state: ModelState, scope: string, now: number): number {
  let inUse = 0;
  for (const permit of state.permits.get(scope)?.values() ?? []) if (now < permit.expiresAt) inUse += permit.units;
  for (const reservation of state.reservations.get(scope)?.values() ?? []) {
    if (isHolding(reservation, now)) inUse += reservation.units;
  }
  return inUse;
}

export function defineCapacity(state: ModelState, command: DefineCapacityCommand): Transition<DefineCapacityResult> {
  if (!isValidId(command.scope) || !isValidCapacity(command.capacity)) {
    return { state, outcome: { kind: 'Rejected', reason: 'invalid-argument' } };
  }
  return {
    state: { ...state, capacities: mapWith(state.capacities, command.scope, command.capacity) },
    outcome: { kind: 'Defined', capacity: command.capacity },
  };
}

/** The common admission checks of AcquirePermit and Reserve, in rule-book order. */
export function admissionProblem(
  state: ModelState,
  request: { readonly scope: string; readonly ttlMs: number; readonly units: number },
  idsValid: boolean,
): RejectReason | null {
  if (!isValidTtl(request.ttlMs)) return 'ttl-out-of-bounds';
  if (!state.capacities.has(request.scope)) return 'undefined-capacity';
  if (!isValidUnits(request.units) || !idsValid) return 'invalid-argument';
  if (isBlocked(state, request.scope)) return 'blocked-for-reconciliation';
  return null;
}

/**
 * Why an AcquirePermit or a Reserve is not admitted: a problem with its arguments or its scope
 * (answered Rejected), or, when it does not fit, the units in use and the capacity (answered Busy
 * or Overbooked). Null when it is admitted.
 */
export type Refusal = { readonly reason: RejectReason } | UnitsInUse;

export function admissionRefusal(
  state: ModelState,
  request: { readonly scope: string; readonly ttlMs: number; readonly units: number },
  idsValid: boolean,
  now: number,
): Refusal | null {
  const problem = admissionProblem(state, request, idsValid);
  if (problem !== null) return { reason: problem };
  const capacity = state.capacities.get(request.scope);
  assert(capacity !== undefined, 'admission checked the capacity');
  const inUse = unitsInUse(state, request.scope, now);
  return inUse + request.units > capacity ? { inUse, capacity } : null;
}

export function acquirePermit(state: ModelState, command: AcquirePermitCommand, now: number): Transition<AcquirePermitResult> {
  const scopePermits = state.permits.get(command.scope);
  const existing = scopePermits?.get(command.permitId);
  const idsValid = isValidId(command.permitId) && isValidId(command.holder) && !(existing !== undefined && now < existing.expiresAt);
  const refused = admissionRefusal(state, command, idsValid, now);
  if (refused !== null) return { state, outcome: 'reason' in refused ? { kind: 'Rejected', reason: refused.reason } : { kind: 'Busy', ...refused } };

  const permit: Permit = {
    scope: command.scope,
    permitId: command.permitId,
    holder: command.holder,
    units: command.units,
    expiresAt: now + command.ttlMs,
  };
  // Expired permits are invisible; dropping them here keeps the sub-map small.
  const kept = new Map<string, Permit>();
  for (const [id, held] of scopePermits ?? []) if (now < held.expiresAt) kept.set(id, held);
  kept.set(command.permitId, permit);
  const next: ModelState = { ...state, permits: mapWith(state.permits, command.scope, kept) };
  assert(unitsInUse(next, command.scope, now) === unitsInUse(state, command.scope, now) + command.units, 'a grant adds exactly its units');
  return { state: next, outcome: { kind: 'Granted', permit } };
}

export function releasePermit(state: ModelState, command: ReleasePermitCommand, now: number): Transition<ReleasePermitResult> {
  const scopePermits = state.permits.get(command.scope);
  const permit = scopePermits?.get(command.permitId);
  if (scopePermits === undefined || permit === undefined || now >= permit.expiresAt) return { state, outcome: { kind: 'NotHeld' } };
  const remaining = mapWithout(scopePermits, command.permitId);
  return {
    state: { ...state, permits: remaining.size === 0 ? mapWithout(state.permits, command.scope) : mapWith(state.permits, command.scope, remaining) },
    outcome: { kind: 'PermitReleased' },
  };
}
