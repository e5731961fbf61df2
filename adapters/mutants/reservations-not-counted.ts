// reservations-not-counted — seed 000 §93–§98 (semaphores), §207 ("Reservation Overbooking:
// Forbidden"), §292–§293. Admission counts live permits only: Pending and Active reservations
// hold no units, so a second reservation of a one-unit device pool is granted while the first is
// still being used.

import { mapWith, mapWithout } from '../../model/persistent.ts';
import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';

export const reservationsNotCounted: Mutant = {
  name: 'reservations-not-counted',
  bug: 'units in use count live permits only: Pending and Active reservations are not counted against the capacity',
  source: '000 §93–§98, §207, §292–§293',
  rule: 'Semaphores and reservations: units in use = live permits + Pending/Active unexpired reservations',
  invariants: ['capacity'],
  scenarios: ['multi-resource-compensation', 'clock-skew', 'standard-mix'],
  store: () =>
    modelMutantStore('reservations-not-counted', ['AcquirePermit', 'Reserve'], (state, command, now, reference) => {
      const held = state.reservations.get(command.scope);
      if (held === undefined) return reference(state, command, now);
      // Admission runs without the scope's reservations; they are put back untouched afterwards.
      const admitted = reference({ ...state, reservations: mapWithout(state.reservations, command.scope) }, command, now);
      const mine = admitted.state.reservations.get(command.scope);
      const merged = new Map(held);
      for (const [id, reservation] of mine ?? []) merged.set(id, reservation);
      return { state: { ...admitted.state, reservations: mapWith(admitted.state.reservations, command.scope, merged) }, outcome: admitted.outcome };
    }),
};
