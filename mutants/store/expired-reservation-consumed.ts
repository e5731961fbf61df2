// expired-reservation-consumed — seed 000 §37–§42 (reservations are short-lived and expire),
// §207–§213, §292 ("saga with expiry"). ConsumeReservation checks the stored state and not the
// clock: a reservation whose time ran out (its units already handed to someone else) is still
// consumed, so two owners used the same device.

import type { ReservationTransitionCommand } from '../../model/commands.ts';
import { mapWith } from '../../model/persistent.ts';
import { modelMutant } from './model-store.ts';

export const expiredReservationConsumed = modelMutant('expired-reservation-consumed', ['ConsumeReservation'], (state, consume, now, reference) => {
  // The transition commands share one type; only ConsumeReservation reaches this rule.
  const command = consume as unknown as ReservationTransitionCommand;
  const scope = state.reservationScopes.get(command.reservationId);
  const reservation = scope === undefined ? undefined : state.reservations.get(scope)?.get(command.reservationId);
  if (scope === undefined || reservation === undefined || now < reservation.expiresAt) return reference(state, command, now);
  // Judged as if the clock had not passed its expiry: the state alone decides.
  const fresh = { ...reservation, expiresAt: now + 1 };
  const consumed = reference({ ...state, reservations: mapWith(state.reservations, scope, mapWith(state.reservations.get(scope)!, command.reservationId, fresh)) }, command, now);
  if (consumed.outcome.kind !== 'ReservationUpdated') return reference(state, command, now);
  const updated = { ...consumed.outcome.reservation, expiresAt: reservation.expiresAt };
  return { state: { ...consumed.state, reservations: mapWith(consumed.state.reservations, scope, mapWith(consumed.state.reservations.get(scope)!, command.reservationId, updated)) }, outcome: { kind: 'ReservationUpdated', reservation: updated } };
});
