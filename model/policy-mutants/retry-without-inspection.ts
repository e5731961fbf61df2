// retry-without-inspection — seed 000 §64–§65 ("Unknown Provider Timeout: Inspect first"),
// §191–§193 (retry safety: InspectBeforeRetry), §287 controller crash test. A new incarnation that
// finds an effect in flight in its predecessor's journal retries it without asking the provider
// whether the first attempt was applied.

import type { PolicyMutant } from './policy-mutant.ts';

export const retryWithoutInspection: PolicyMutant = {
  name: 'retry-without-inspection',
  bug: 'after a crash the next incarnation retries an in-flight effect without inspecting the provider first',
  source: '000 §64–§65, §191–§193, §287',
  rule: 'no-blind-retry: an effect with an unknown outcome is inspected before it is re-issued',
  invariants: ['no-blind-retry'],
  scenarios: ['controller-crash-reconcile', 'lease-expiry-new-epoch', 'standard-mix'],
  policy: { inspectBeforeRetry: false },
};
