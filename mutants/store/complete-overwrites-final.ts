// complete-overwrites-final — seed 000 §45 (the record holds the request's outcome), §48–§51
// ("Succeeded: return stored semantic outcome"), §283–§284. IdempotencyComplete writes its
// outcome whatever state the record is in, as an `UPDATE ... SET outcome = $1 WHERE key = $2 AND
// digest = $3` that forgot `AND state IN ('InProgress', 'Unknown')`: a late or repeated completion
// (a recovering incarnation that marks the request Unknown, then settles it from the provider)
// overwrites the outcome an earlier completion already recorded and acknowledged, so the answer
// replayed for that key changes, or the record goes back to Unknown.

import { idempotencyDomain } from '../../model/idempotency.ts';
import { mapWith } from '../../model/persistent.ts';
import { modelMutant } from './model-store.ts';

export const completeOverwritesFinal = modelMutant('complete-overwrites-final', ['IdempotencyComplete'], (state, command, now, reference) => {
  const answer = reference(state, command, now);
  if (answer.outcome.kind !== 'AlreadyFinal') return answer;
  // The final record is written over as if it were still open.
  const domain = idempotencyDomain(command);
  const byKey = state.idempotency.get(domain)!;
  const record = byKey.get(command.key)!;
  const updated = { ...record, state: command.outcome.kind, outcome: command.outcome };
  return { state: { ...state, idempotency: mapWith(state.idempotency, domain, mapWith(byKey, command.key, updated)) }, outcome: { kind: 'Recorded' } };
});
