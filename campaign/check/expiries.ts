// The moments ahead at which something in the reference state expires: leases, permits,
// reservations and idempotency records. The check's clock jumps to one of them, one millisecond
// either side, where an off-by-one in a store's expiry comparison shows.

import type { ModelState } from '../../model/state.ts';

export function upcomingExpiries(state: ModelState, now: number): ReadonlyArray<number> {
  const times = new Set<number>();
  const add = (t: number) => {
    if (t > now) times.add(t);
  };
  for (const lease of state.leases.values()) add(lease.expiresAt);
  for (const byId of state.permits.values()) for (const permit of byId.values()) add(permit.expiresAt);
  for (const byId of state.reservations.values()) for (const reservation of byId.values()) add(reservation.expiresAt);
  for (const byKey of state.idempotency.values()) for (const record of byKey.values()) add(record.expiresAt);
  return [...times].sort((a, b) => a - b);
}
