// How a reservation reads at a given time (§211–§212): a Pending or Active reservation whose
// expiry has passed reads as Expired, and an expired reservation never holds capacity.

import type { Reservation, ReservationState } from './outcomes.ts';

export function readState(reservation: Reservation, now: number): ReservationState {
  const open = reservation.state === 'Pending' || reservation.state === 'Active';
  return open && now >= reservation.expiresAt ? 'Expired' : reservation.state;
}

/** Does this reservation count against its scope's capacity at `now`? */
export function isHolding(reservation: Reservation, now: number): boolean {
  const state = readState(reservation, now);
  return state === 'Pending' || state === 'Active';
}
