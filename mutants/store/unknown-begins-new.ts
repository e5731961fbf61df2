// unknown-begins-new — seed 000 §52–§53 ("Unknown Must Not Be Converted to New Intent
// Automatically"), §285, §315. A record whose outcome is Unknown is treated like a record that
// failed and may be retried: the next request with the same key and digest is answered New and
// starts the operation again before anyone reconciled the first one.

import { idempotencyDomain } from '../../model/idempotency.ts';
import { mapWith, mapWithout } from '../../model/persistent.ts';
import { modelMutant } from './model-store.ts';

export const unknownBeginsNew = modelMutant('unknown-begins-new', ['IdempotencyBegin'], (state, command, now, reference) => {
  const answer = reference(state, command, now);
  if (answer.outcome.kind !== 'Unknown') return answer;
  // Begun as if no record existed: a fresh InProgress record replaces the Unknown one.
  const domain = idempotencyDomain(command);
  const byKey = state.idempotency.get(domain)!;
  return reference({ ...state, idempotency: mapWith(state.idempotency, domain, mapWithout(byKey, command.key)) }, command, now);
});
