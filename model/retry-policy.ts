// Retry policy (§64–§65, §191–§197): what may follow an external call, decided by the adapter's
// declared retry safety and by what is known about the last attempt. No generic retry for
// mutations: an effect that may have happened is inspected before anything re-issues it.

import { assert } from './assert.ts';
import type { RetrySafety } from './effect-state.ts';

/** What is known about the last attempt: a definite failure, or no answer at all. */
export type LastAttempt = 'Failed' | 'Unknown' | 'Timeout';

export type RetryDecision = 'retry' | 'inspect-first' | 'manual';

export function retryDecision(safety: RetrySafety, last: LastAttempt): RetryDecision {
  const ambiguous = last === 'Unknown' || last === 'Timeout';
  let decision: RetryDecision;
  switch (safety) {
    case 'Idempotent':
    case 'ProviderIdempotent':
      // Re-issuing with the same provider token cannot duplicate the effect.
      decision = 'retry';
      break;
    case 'InspectBeforeRetry':
      // A definite failure is known not to have applied; an ambiguous attempt may have.
      decision = ambiguous ? 'inspect-first' : 'retry';
      break;
    case 'ManualOnly':
      decision = 'manual';
      break;
  }
  assert(!(ambiguous && decision === 'retry' && safety === 'InspectBeforeRetry'), 'no blind retry of a non-idempotent effect');
  assert(safety !== 'ManualOnly' || decision === 'manual', 'a manual-only effect is never retried automatically');
  return decision;
}

/** After an inspection: an applied effect is done; one that did not apply may be retried once. */
export function afterInspection(safety: RetrySafety, applied: boolean): 'done' | 'retry' | 'manual' {
  if (applied) return 'done';
  return safety === 'ManualOnly' ? 'manual' : 'retry';
}
