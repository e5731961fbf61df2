// digest-ignored — seed 000 §46–§47 ("Same key, different request digest: Conflict"), §284. The
// idempotency record is looked up by key alone and the request digest is never compared: a
// different request reusing a key is answered with the first request's record (Replay,
// InProgress, Unknown) instead of Conflict.

import type { IdempotencyBeginCommand, IdempotencyCompleteCommand } from '../../model/commands.ts';
import type { OutcomeOf } from '../../model/outcomes.ts';
import type { ModelState, Transition } from '../../model/state.ts';
import { modelMutant, type ReferenceStep } from './model-store.ts';

/** The reference answer, asked again as if the caller had sent the stored digest wherever it is a Conflict. */
export function withStoredDigest<C extends IdempotencyBeginCommand | IdempotencyCompleteCommand>(state: ModelState, command: C, now: number, reference: ReferenceStep): Transition<OutcomeOf<C>> {
  const answer = reference(state, command, now);
  const outcome = answer.outcome as { readonly kind: string; readonly existingDigest?: string };
  if (outcome.kind !== 'Conflict') return answer;
  return reference(state, { ...command, digest: outcome.existingDigest! }, now);
}

export const digestIgnored = modelMutant('digest-ignored', ['IdempotencyBegin', 'IdempotencyComplete'], withStoredDigest);
