// reservations-not-counted — seed 000 §93–§98 (semaphores), §207 ("Reservation Overbooking:
// Forbidden"), §292–§293. Admission counts live permits only: Pending and Active reservations
// hold no units, so a second reservation of a one-unit device pool is granted while the first is
// still being used.

import { mapWith, mapWithout } from '../../model/persistent.ts';
import { modelMutant } from './model-store.ts';

export const reservationsNotCounted = modelMutant('reservations-not-counted', ['AcquirePermit', 'Reserve'], (state, command, now, reference) => {
  const held = state.reservations.get(command.scope);
  if (held === undefined) return reference(state, command, now);
  // Admission runs without the scope's reservations; they are put back untouched afterwards.
  const admitted = reference({ ...state, reservations: mapWithout(state.reservations, command.scope) }, command, now);
  const mine = admitted.state.reservations.get(command.scope);
  const merged = new Map(held);
  for (const [id, reservation] of mine ?? []) merged.set(id, reservation);
  return { state: { ...admitted.state, reservations: mapWith(admitted.state.reservations, command.scope, merged) }, outcome: admitted.outcome };
});
