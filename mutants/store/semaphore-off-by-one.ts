// semaphore-off-by-one — seed 000 §93–§96, §207 ("Reservation Overbooking: Forbidden"), §293
// semaphore test ("Capacity never exceeded"). The admission check compares with `>=` where it
// means `>`, one unit too late: a full semaphore admits one more unit than its capacity.

import { mapWith } from '../../model/persistent.ts';
import { modelMutant } from './model-store.ts';

export const semaphoreOffByOne = modelMutant('semaphore-off-by-one', ['AcquirePermit', 'Reserve'], (state, command, now, reference) => {
  const capacity = state.capacities.get(command.scope);
  if (capacity === undefined) return reference(state, command, now);
  const loosened = reference({ ...state, capacities: mapWith(state.capacities, command.scope, capacity + 1) }, command, now);
  const outcome = loosened.outcome;
  return {
    // The stored capacity is untouched: only the comparison is off.
    state: { ...loosened.state, capacities: state.capacities },
    outcome: outcome.kind === 'Busy' || outcome.kind === 'Overbooked' ? { ...outcome, capacity } : outcome,
  };
});
