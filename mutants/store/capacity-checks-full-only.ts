// capacity-checks-full-only — seed 000 §93–§96, §207 ("Reservation Overbooking: Forbidden"),
// §293. The admission check asks whether the pool is already full (`inUse >= capacity`) instead of
// whether the request fits (`inUse + units > capacity`): a request for several units is admitted
// into a pool with one unit left, and the pool overflows. With one unit per request the two
// checks agree, so only requests for more than one unit show it.

import { mapWith } from '../../model/persistent.ts';
import { unitsInUse } from '../../model/semaphore.ts';
import { modelMutant } from './model-store.ts';

export const capacityChecksFullOnly = modelMutant('capacity-checks-full-only', ['AcquirePermit', 'Reserve'], (state, command, now, reference) => {
  const capacity = state.capacities.get(command.scope);
  if (capacity === undefined || unitsInUse(state, command.scope, now) >= capacity) return reference(state, command, now);
  // Not full: admitted whatever it asks for, as if the pool had room for it.
  const roomy = reference({ ...state, capacities: mapWith(state.capacities, command.scope, capacity + command.units) }, command, now);
  return { state: { ...roomy.state, capacities: state.capacities }, outcome: roomy.outcome };
});
