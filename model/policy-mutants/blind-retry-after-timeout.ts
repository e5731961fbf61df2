// blind-retry-after-timeout — seed 000 §64–§65 ("Unknown Provider Timeout: Inspect first"; "Blind
// Retry: Forbidden for non-idempotent operations"), §191–§194, §285 unknown outcome test. After a
// provider timeout a generic retry layer in the controller re-issues the effect at once, without
// asking the provider what happened (§194 "No Generic Retry Middleware For Mutations").

import type { PolicyMutant } from './policy-mutant.ts';

export const blindRetryAfterTimeout: PolicyMutant = {
  name: 'blind-retry-after-timeout',
  bug: 'after a provider timeout the effect is re-issued without inspecting the provider first',
  source: '000 §64–§65, §191–§194, §285',
  rule: 'no-blind-retry: an effect with an unknown outcome is inspected before it is re-issued',
  invariants: ['no-blind-retry'],
  scenarios: ['provider-timeout-unknown', 'standard-mix'],
  policy: { retryMiddleware: true },
};
