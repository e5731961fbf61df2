// expired-units-still-counted — seed 000 §93–§98 (semaphores), §95 (a permit is a lease: bounded
// by its TTL), §207–§212 ("Expired" is a reservation state; an expired reservation holds nothing).
// The units-in-use sum reads every permit row and every Pending or Active reservation of the
// scope without their expiry (`SELECT sum(units) ... WHERE scope = $1`, the `expires_at > now()`
// left to a sweeper that never runs): a permit whose holder died, or a reservation that ran out,
// keeps its units until someone releases it, and a request that fits the capacity is refused as
// Busy or Overbooked.

import { mapWith } from '../../model/persistent.ts';
import { unitsInUse } from '../../model/semaphore.ts';
import type { ModelState } from '../../model/state.ts';
import { modelMutant } from './model-store.ts';

/** The units of the scope's permits and open reservations whose expiry has passed. */
function expiredUnits(state: ModelState, scope: string, now: number): number {
  let units = 0;
  for (const permit of state.permits.get(scope)?.values() ?? []) if (now >= permit.expiresAt) units += permit.units;
  for (const reservation of state.reservations.get(scope)?.values() ?? []) {
    const open = reservation.state === 'Pending' || reservation.state === 'Active';
    if (open && now >= reservation.expiresAt) units += reservation.units;
  }
  return units;
}

export const expiredUnitsStillCounted = modelMutant('expired-units-still-counted', ['AcquirePermit', 'Reserve'], (state, command, now, reference) => {
  const answer = reference(state, command, now);
  const capacity = state.capacities.get(command.scope);
  const kept = expiredUnits(state, command.scope, now);
  if (capacity === undefined || kept === 0 || (answer.outcome.kind !== 'Granted' && answer.outcome.kind !== 'Reserved')) return answer;
  // Admission sees the expired units as still in use: the capacity left is smaller by them.
  const narrowed = reference({ ...state, capacities: mapWith(state.capacities, command.scope, capacity - kept) }, command, now);
  if (narrowed.outcome.kind === 'Granted' || narrowed.outcome.kind === 'Reserved') return answer;
  const inUse = unitsInUse(state, command.scope, now) + kept;
  return { state, outcome: command.kind === 'AcquirePermit' ? { kind: 'Busy', inUse, capacity } : { kind: 'Overbooked', inUse, capacity } };
});
