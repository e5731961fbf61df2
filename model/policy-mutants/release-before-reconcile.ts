// release-before-reconcile — seed 000 §115–§117 (cancel sequence: "reconcile in-flight effect"
// comes before "release lease"; "Otherwise new owner may collide with old external operation"),
// §288 provider timeout test ("Lease not blindly released before observation"), §289.

import type { PolicyMutant } from './policy-mutant.ts';

export const releaseBeforeReconcile: PolicyMutant = {
  name: 'release-before-reconcile',
  bug: 'the lease is released while an effect is still in flight or unknown, before reconciliation',
  source: '000 §115–§117, §288–§289',
  rule: 'release-after-reconcile: no lease is released while an effect under it is in flight or unknown',
  invariants: ['release-after-reconcile'],
  scenarios: ['cancel-keeps-lease', 'provider-timeout-unknown', 'standard-mix'],
  policy: { releaseBeforeReconcile: true },
};
