// nested-acquire-order — seed 000 §99–§105 ("Lock Ordering: Primary safety"), §108–§109, §291
// deadlock test. Several resources are acquired one by one in the order the request lists them,
// each held while waiting for the next: two requests listing the same scopes in opposite orders
// each hold one and wait for the other.

import type { PolicyMutant } from './policy-mutant.ts';

export const nestedAcquireOrder: PolicyMutant = {
  name: 'nested-acquire-order',
  bug: 'multi-resource requests take their scopes one by one in request order instead of all at once in canonical order',
  source: '000 §99–§105, §108–§109, §291',
  rule: 'liveness: every waiter completes within the bound once faults heal (no deadlock)',
  invariants: ['liveness'],
  scenarios: ['deadlock-order'],
  policy: { canonicalOrder: false },
};
