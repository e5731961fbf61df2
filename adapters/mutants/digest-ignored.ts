// digest-ignored — seed 000 §46–§47 ("Same key, different request digest: Conflict"), §284. The
// idempotency record is looked up by key alone and the request digest is never compared: a
// different request reusing a key is answered with the first request's record (Replay,
// InProgress, Unknown) instead of Conflict.

import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';

export const digestIgnored: Mutant = {
  name: 'digest-ignored',
  bug: 'IdempotencyBegin and IdempotencyComplete ignore the request digest: another request reusing a key is not a Conflict',
  source: '000 §46–§47, §284',
  rule: 'Idempotency: IdempotencyBegin (present with another digest → Conflict, whatever the state)',
  invariants: ['digest-conflict'],
  scenarios: ['idempotency-different-request', 'standard-mix'],
  store: () =>
    modelMutantStore('digest-ignored', ['IdempotencyBegin', 'IdempotencyComplete'], (state, command, now, reference) => {
      const answer = reference(state, command, now);
      if (answer.outcome.kind !== 'Conflict') return answer;
      // Asked again as if the caller had sent the stored digest.
      return reference(state, { ...command, digest: answer.outcome.existingDigest }, now);
    }),
};
