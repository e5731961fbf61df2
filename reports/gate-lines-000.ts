// The gates (000 §316) and acceptance tests (000 §315) of seed 000, with what proves each.

import type { Entry, Line } from './gate-definition.ts';
import { FEDERATION_SIMULATED } from './gate-notes.ts';

/** The gate and the acceptance test of request-digest conflicts have the same proofs. */
const DIGEST_CONFLICT: Entry = {
  // A completion that outlived its record must not land on the record another request took.
  scenarios: ['idempotency-different-request', 'idempotency-late-completion'],
  invariants: ['digest-conflict'],
  suites: ['idempotency'],
};

export const SEED_000_GATES: ReadonlyArray<Line> = [
  ['fencing-monotonic', 'lease/fencing monotonicity is proven', {
    scenarios: ['lease-expiry-new-epoch', 'paused-holder-expiry', 'renewal-race', 'force-release-observed-epoch', 'db-failover', 'db-failover-unmitigated', 'restore', 'restore-unmitigated', 'standard-mix'],
    suites: ['conformance', 'conformance-postgres'],
    invariants: ['fencing-monotonic', 'restore-invalidates'],
  }],
  ['stale-owner-mutation', 'stale-owner mutation tests pass', {
    scenarios: ['stale-holder', 'paused-holder-expiry', 'clock-skew', 'split-brain-partition', 'renewal-failure-stops-holder', 'standalone-coordination', 'provider-fencing'],
    invariants: ['one-owner-per-epoch', 'lease-exclusive'],
  }],
  ['idempotency-digest-conflict', 'idempotency request-digest conflicts are enforced', DIGEST_CONFLICT],
  ['provider-unknown-reconciliation', 'provider Unknown reconciliation works', {
    // A reconciling incarnation marks its request Unknown, then settles it: neither completion may
    // write over an outcome the store already recorded and acknowledged.
    scenarios: ['provider-timeout-unknown', 'cancel-keeps-lease', 'idempotency-late-completion', 'idempotency-unknown-outcome'],
    invariants: ['no-blind-retry', 'unknown-not-new', 'release-after-reconcile', 'idempotency-final'],
  }],
  ['integrations-dogfooded', 'deployment/infra/merge integrations are dogfooded', {
    note: 'Dogfooding is a property of the product integrations, outside this testbed.',
  }],
  ['deadlock-prevention', 'deadlock prevention is tested', {
    scenarios: ['deadlock-order', 'multi-resource-compensation'],
    invariants: ['liveness'],
  }],
  ['force-release-audited', 'force-release safety is audited', {
    scenarios: ['force-release-observed-epoch', 'force-release-stalled-holders'],
    invariants: ['force-release-audited', 'force-release-judged'],
  }],
  ['dr-invalidates-leases', 'DR invalidates stale leases', {
    scenarios: ['restore', 'restore-unmitigated', 'db-failover', 'db-failover-unmitigated'],
    invariants: ['restore-invalidates', 'one-owner-per-epoch', 'fencing-monotonic', 'restore-forgets'],
  }],
  // Sites, WAN cuts and a domain's authority failover, on the memory store and on PostgreSQL, whose
  // SQL checks the authority guard as it checks every role guard (testbed_guard).
  ['federation-authority', 'federation authority integration passes', {
    scenarios: ['federation-site-failover', 'federation-site-failover@postgres'],
    invariants: ['site-authority-first'],
    note: FEDERATION_SIMULATED,
  }],
  ['chaos-stress', 'chaos/concurrency stress tests pass', {
    scenarios: ['standard-mix', 'swarm-mix', 'split-brain-partition', 'controller-crash-reconcile', 'db-crash', 'db-failover', 'clock-skew', 'semaphore-capacity', 'fairness-starvation', 'renewal-race', 'displaced-waiter-recheck', 'sql-contention', 'sql-renewal-race', 'sql-release-race'],
    // Any bug these sweeps catch shows they can fail: no particular invariant is the rule here
    // (a controller that does no work, caught by runs-do-work, among them).
    // Concurrent transactions on PostgreSQL, interleaved from the seed and explored schedule by
    // schedule: each suite fails when the store fails or a SQL race mutant escapes.
    suites: ['sql-races-interleaved', 'sql-races-exhaustive'],
  }],
];

export const SEED_000_ACCEPTANCE: ReadonlyArray<Line> = [
  ['locks-not-business-truth', 'Locks/leases never become canonical business truth.', { note: 'An architectural rule; no run can prove it.' }],
  // A scope id that leaves the tenant out is not the canonical identity of the typed reference.
  ['typed-scope-identity', 'Exclusive scopes have typed canonical identity.', {
    scenarios: ['tenant-isolation'],
    invariants: ['tenant-isolation'],
    suites: ['scope-identity'],
  }],
  ['one-owner-per-scope', 'One accepted lease owner exists per exclusive scope.', {
    scenarios: ['split-brain-partition', 'renewal-race', 'paused-holder-expiry', 'standard-mix', 'clock-skew', 'three-node-failover', 'displaced-waiter-recheck', 'db-crash', 'sql-contention', 'sql-renewal-race'],
    // A second owner also comes from a store that grants the scope again to the session holding it,
    // or that loses its lease rows in a database crash (000 §286).
    // ttl-max-excluded refuses a lease the rule book accepts: at the TTL bound, the owner is not accepted.
    invariants: ['one-owner-per-epoch', 'lease-exclusive'],
    // Every schedule of concurrent calls on PostgreSQL: the suite fails when one breaks a rule on
    // the store or a SQL race mutant escapes.
    suites: ['sql-races-exhaustive'],
  }],
  ['higher-fencing-token', 'Every new owner receives a higher fencing token.', {
    scenarios: ['lease-expiry-new-epoch', 'force-release-observed-epoch', 'db-failover', 'restore', 'lease-handoff'],
    invariants: ['fencing-monotonic', 'restore-invalidates'],
    suites: ['sql-races-exhaustive'],
  }],
  ['stale-holder-rejected', 'Stale holders cannot mutate protected state.', {
    scenarios: ['stale-holder', 'paused-holder-expiry', 'clock-skew', 'stable-holder-names', 'session-loss', 'sql-release-race'],
    invariants: ['one-owner-per-epoch', 'lease-exclusive'],
  }],
  ['expiry-not-effect-absence', 'Lease expiry does not imply external effect absence.', {
    scenarios: ['provider-timeout-unknown', 'cancel-keeps-lease'],
    invariants: ['no-blind-retry', 'release-after-reconcile'],
  }],
  ['ambiguous-effects-reconcile', 'Ambiguous external effects reconcile before new ownership proceeds.', {
    scenarios: ['provider-timeout-unknown', 'controller-crash-reconcile'],
    invariants: ['no-blind-retry', 'release-after-reconcile', 'unknown-not-new'],
  }],
  // One mutant fences writes by the aggregate's version high-water mark instead of the live lease;
  // the other checks the lease and not the expected version.
  ['aggregate-version-separate', 'Aggregate versioning remains separate from lease ownership.', {
    scenarios: ['paused-holder-expiry', 'stale-holder', 'provider-fencing'],
    invariants: ['one-owner-per-epoch', 'lease-exclusive', 'no-lost-update'],
    suites: ['conformance'],
  }],
  ['idempotency-key-scoped', 'Idempotency key is scoped by operation/subject/tenant.', {
    scenarios: ['idempotency-different-request'],
    invariants: ['idempotency-scope'],
    suites: ['idempotency'],
  }],
  ['digest-mismatch-rejected', 'Same key with different request digest is rejected.', DIGEST_CONFLICT],
  ['unknown-not-new-operation', 'Unknown idempotency outcome does not create a new operation automatically.', {
    scenarios: ['provider-timeout-unknown', 'idempotency-unknown-outcome'],
    invariants: ['unknown-not-new', 'no-blind-retry'],
  }],
  ['retry-safety-declared', 'Provider mutations declare retry safety.', { suites: ['conformance'] }],
  ['no-blind-retry', 'Generic blind retry middleware is not used for non-idempotent writes.', {
    scenarios: ['provider-timeout-unknown'],
    invariants: ['no-blind-retry'],
  }],
  ['concurrency-groups-explicit', 'Workflow concurrency groups support queue/cancel/reject explicitly.', {
    scenarios: ['cancel-previous-non-supersedable'],
    invariants: ['concurrency-group'],
  }],
  ['non-supersedable-protected', 'Non-supersedable protected operations cannot be cancelled by ordinary CancelPrevious.', {
    scenarios: ['cancel-previous-non-supersedable'],
    invariants: ['release-after-reconcile', 'concurrency-group'],
  }],
  ['multi-resource-composite', 'Multi-resource acquisition uses composite scope/order/compensation.', {
    scenarios: ['multi-resource-compensation', 'deadlock-order'],
    // Out of order the acquisitions deadlock; not all or nothing, a busy one leaves phantom leases.
    invariants: ['liveness', 'no-phantom-lease'],
  }],
  ['deadlock-avoidance-designed', 'Deadlock avoidance is designed, not reactive only.', { scenarios: ['deadlock-order'], invariants: ['liveness'] }],
  ['reservations-within-capacity', 'Reservations do not exceed resource capacity.', {
    scenarios: ['semaphore-capacity', 'multi-resource-compensation'],
    invariants: ['capacity'],
    suites: ['sql-races-exhaustive'],
  }],
  ['reservations-expire', 'Device/test-account reservations expire and reconcile.', {
    scenarios: ['semaphore-capacity', 'renewal-failure-stops-holder', 'clock-skew'],
    // An expired reservation is never consumed, and its units come back (a refusal only they explain leaked them).
    invariants: ['capacity', 'capacity-refusal'],
    note: 'Covers reservation expiry in the store; device and test-account reconciliation is outside this testbed.',
  }],
  ['force-release-exact', 'Force release requires exact scope/epoch/privilege/audit.', {
    // An operator script without the privilege flag, or with a reason of white space only, must be refused.
    scenarios: ['force-release-observed-epoch', 'force-release-stalled-holders', 'retried-and-late-requests'],
    invariants: ['force-release-audited', 'force-release-judged'],
  }],
  // The holder stops when its lease is lost, and its run is reported as what it was when its
  // handler returned: a loss the refresh loop reports after the return rewrites neither a
  // completed run nor a handler error as preempted (seed 003, the cause read after the drain).
  ['failover-no-stale-continuation', 'Controller failover does not allow stale owner continuation.', {
    scenarios: ['controller-crash-reconcile', 'renewal-failure-stops-holder', 'stalled-refresh', 'stale-holder', 'lease-loss-after-return'],
    // A stale holder whose refresh stalled must not end the next owner's lease by releasing it.
    invariants: ['one-owner-per-epoch', 'lease-exclusive', 'work-within-lease', 'outcome-at-return'],
  }],
  ['no-process-local-mutex', 'Process-local mutexes are never distributed correctness primitives.', {
    scenarios: ['split-brain-partition', 'stale-holder', 'standard-mix', 'session-loss'],
    invariants: ['one-owner-per-epoch', 'fencing-monotonic', 'lease-exclusive'],
  }],
  ['postgres-same-semantics', 'Postgres/Stoolap implementations preserve same semantic model.', {
    scenarios: ['standard-mix@postgres'],
    suites: ['check-postgres', 'check-mutants', 'conformance-postgres', 'differential-postgres', 'sql-races-exhaustive'],
    note: 'PostgreSQL only; there is no Stoolap adapter.',
  }],
  ['federation-fences-site', 'Federation authority fences site-local ownership.', {
    scenarios: ['federation-site-failover'],
    invariants: ['site-authority-first'],
    note: FEDERATION_SIMULATED,
  }],
  ['restore-invalidates-leases', 'Restore invalidates stale pre-restore leases.', {
    scenarios: ['restore', 'restore-unmitigated', 'db-failover'],
    invariants: ['restore-invalidates', 'fencing-monotonic', 'one-owner-per-epoch', 'restore-forgets'],
  }],
  ['reconcile-before-reopen', 'Protected scopes reconcile before reopening after DR.', {
    scenarios: ['restore', 'db-failover'],
    invariants: ['release-after-reconcile', 'restore-invalidates'],
  }],
  ['contention-observable', 'High contention is observable.', {
    scenarios: ['fairness-starvation'],
    // Under contention an unfair queue shows as a waiter that starves: caught by liveness there.
    invariants: ['liveness'],
    note: 'Wait times are plotted from the Enqueue→Acquired pairs of each kept history.',
  }],
  ['tenant-scopes-isolated', 'Tenant-generated scope names cannot collide with system scopes.', {
    scenarios: ['tenant-isolation'],
    suites: ['scope-identity'],
  }],
  ['lease-history-retained', 'Lease history is retained according lifecycle/audit policy.', {
    scenarios: ['db-failover', 'restore'],
    invariants: ['history-retained'],
    note: 'The rule book’s policy keeps every tombstone for ever, and each Inspect must list every lease the store ended before it (unless a failover or restore rolled the end back). A store that prunes ownership history is caught where an Inspect follows. Time-based retention windows, archival and privacy deletion (Part 46) are not modelled.',
  }],
  ['dogfooding', 'Forgeyard dogfoods the subsystem for deployment, infra apply, merge submission, device leases, release aliases, and workflow concurrency.', {
    note: 'Dogfooding is a property of the product integrations, outside this testbed.',
  }],
];
