// reopen-without-inspection — seed 000 §272–§276 (restore: reconcile before reopening), §237,
// §64–§65 (unknown provider outcome: inspect first), §297. After a failover or restore the
// recovery procedure reopens the blocked scopes at once, without inspecting the effects that
// were in flight when the database was replaced.

import type { PolicyMutant } from './policy-mutant.ts';

export const reopenWithoutInspection: PolicyMutant = {
  name: 'reopen-without-inspection',
  bug: 'after failover or restore, blocked scopes are reopened without inspecting their in-flight effects',
  source: '000 §64–§65, §237, §272–§276, §297',
  rule: 'release-after-reconcile: a blocked scope is reopened (ReconcileScope) only after its in-flight effects are observed',
  invariants: ['release-after-reconcile'],
  scenarios: ['restore', 'db-failover'],
  policy: { inspectBeforeReopen: false },
};
