// blind-retry-after-timeout — seed 000 §64–§65 ("Unknown Provider Timeout: Inspect first"; "Blind
// Retry: Forbidden for non-idempotent operations"), §191–§194, §285 unknown outcome test. After a
// provider timeout the controller re-issues the effect without asking the provider what happened.

import type { Mutant } from './mutant.ts';

export const blindRetryAfterTimeout: Mutant = {
  name: 'blind-retry-after-timeout',
  bug: 'after a provider timeout the effect is re-issued without inspecting the provider first',
  source: '000 §64–§65, §191–§194, §285',
  scenarios: ['provider-timeout-unknown', 'standard-mix'],
  policy: { inspectBeforeRetry: false },
};
