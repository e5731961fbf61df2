// Reservations (§37–§42, §207–§213): a promise of capacity, distinct from a lease. Overbooking is
// a first-class outcome, and an expired reservation can never be consumed.

import type { ReservationTransitionCommand, ReserveCommand } from './commands.ts';
import type { Reservation, ReservationState, ReservationTransitionResult, ReserveResult } from './outcomes.ts';
import { mapWith } from './persistent.ts';
import { readState } from './reservation-state.ts';
import { admissionRefusal } from './semaphore.ts';
import type { ModelState, Transition } from './state.ts';
import { isValidId } from './validation.ts';

function withReservation(state: ModelState, reservation: Reservation): ModelState {
  const byId = mapWith(state.reservations.get(reservation.scope) ?? new Map<string, Reservation>(), reservation.reservationId, reservation);
  return {
    ...state,
    reservations: mapWith(state.reservations, reservation.scope, byId),
    reservationScopes: state.reservationScopes.has(reservation.reservationId)
      ? state.reservationScopes
      : mapWith(state.reservationScopes, reservation.reservationId, reservation.scope),
  };
}

function findReservation(state: ModelState, reservationId: string): Reservation | undefined {
  const scope = state.reservationScopes.get(reservationId);
  return scope === undefined ? undefined : state.reservations.get(scope)?.get(reservationId);
}

/** The reservation a granted Reserve creates: Pending until activated, expiring after its TTL. */
export function pendingReservation(command: ReserveCommand, now: number): Reservation {
  return {
    scope: command.scope,
    reservationId: command.reservationId,
    owner: command.owner,
    units: command.units,
    state: 'Pending',
    createdAt: now,
    expiresAt: now + command.ttlMs,
  };
}

export function reserve(state: ModelState, command: ReserveCommand, now: number): Transition<ReserveResult> {
  const idsValid = isValidId(command.reservationId) && isValidId(command.owner) && !state.reservationScopes.has(command.reservationId);
  const refused = admissionRefusal(state, command, idsValid, now);
  if (refused !== null) return { state, outcome: 'reason' in refused ? { kind: 'Rejected', reason: refused.reason } : { kind: 'Overbooked', ...refused } };
  const reservation = pendingReservation(command, now);
  return { state: withReservation(state, reservation), outcome: { kind: 'Reserved', reservation } };
}

const TARGET: Readonly<Record<ReservationTransitionCommand['kind'], { readonly from: ReadonlyArray<ReservationState>; readonly to: ReservationState }>> = {
  ActivateReservation: { from: ['Pending'], to: 'Active' },
  ConsumeReservation: { from: ['Pending', 'Active'], to: 'Consumed' },
  ReleaseReservation: { from: ['Pending', 'Active'], to: 'Released' },
  FailReservation: { from: ['Pending', 'Active'], to: 'Failed' },
};

export function transitionReservation(state: ModelState, command: ReservationTransitionCommand, now: number): Transition<ReservationTransitionResult> {
  const reservation = findReservation(state, command.reservationId);
  if (reservation === undefined) return { state, outcome: { kind: 'NotFound' } };
  const current = readState(reservation, now);
  if (current === 'Expired') return { state, outcome: { kind: 'ReservationExpired' } };
  const rule = TARGET[command.kind];
  if (!rule.from.includes(current)) return { state, outcome: { kind: 'InvalidState', state: current } };
  const updated: Reservation = { ...reservation, state: rule.to };
  return { state: withReservation(state, updated), outcome: { kind: 'ReservationUpdated', reservation: updated } };
}
