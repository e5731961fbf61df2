// Every production-readiness gate (seed 000 §316, seed 001 §339) and every acceptance test
// (seed 000 §315, seed 001 §338), with the scenarios, mutants and test suites that prove it.
// This is data: to change what proves a gate, edit its line. A proof names a scenario as
// published by `testbed scenarios` (`name`, or `name@adapter` to count only that adapter), a
// mutant as published by `testbed mutants`, or a suite by the name the test run reports.
// A row with no proofs is reported `untested` with the reason in its note.

export interface GateProofs {
  readonly scenarios: ReadonlyArray<string>;
  readonly mutants: ReadonlyArray<string>;
  readonly suites: ReadonlyArray<string>;
}

export interface GateDefinition {
  /** Stable kebab id: `<seed>-<section>-<slug>`. */
  readonly id: string;
  readonly title: string;
  /** The seed section, for example `000 §316`. */
  readonly source: string;
  readonly proofs: GateProofs;
  /** What the proofs leave out, shown next to the status. */
  readonly note?: string;
}

interface Entry {
  readonly scenarios?: ReadonlyArray<string>;
  readonly mutants?: ReadonlyArray<string>;
  readonly suites?: ReadonlyArray<string>;
  readonly note?: string;
}

type Line = readonly [slug: string, title: string, entry: Entry];

const NOT_MODELLED = 'Nothing in the testbed models this yet.';

const SEED_000_GATES: ReadonlyArray<Line> = [
  ['fencing-monotonic', 'lease/fencing monotonicity is proven', {
    scenarios: ['lease-expiry-new-epoch', 'paused-holder-expiry', 'renewal-race', 'force-release-observed-epoch', 'db-failover', 'db-failover-unmitigated', 'restore', 'restore-unmitigated', 'standard-mix'],
    mutants: ['epoch-reset-after-restore'],
    suites: ['conformance', 'conformance-postgres'],
  }],
  ['stale-owner-mutation', 'stale-owner mutation tests pass', {
    scenarios: ['stale-holder', 'paused-holder-expiry', 'clock-skew', 'split-brain-partition', 'renewal-failure-stops-holder'],
    mutants: ['no-fencing-check', 'client-clock-expiry', 'renewal-without-epoch-check', 'advisory-lock-only', 'holder-not-stopped-on-renewal-failure', 'effect-without-lease-confirmation'],
  }],
  ['idempotency-digest-conflict', 'idempotency request-digest conflicts are enforced', {
    scenarios: ['idempotency-different-request'],
    suites: ['idempotency'],
  }],
  ['provider-unknown-reconciliation', 'provider Unknown reconciliation works', {
    scenarios: ['provider-timeout-unknown', 'cancel-keeps-lease'],
    mutants: ['blind-retry-after-timeout', 'unknown-treated-as-failure'],
  }],
  ['integrations-dogfooded', 'deployment/infra/merge integrations are dogfooded', {
    note: 'Dogfooding is a property of the product integrations, outside this testbed.',
  }],
  ['deadlock-prevention', 'deadlock prevention is tested', {
    scenarios: ['deadlock-order', 'multi-resource-compensation'],
  }],
  ['force-release-audited', 'force-release safety is audited', {
    scenarios: ['force-release-observed-epoch'],
    mutants: ['key-only-force-release'],
  }],
  ['dr-invalidates-leases', 'DR invalidates stale leases', {
    scenarios: ['restore', 'restore-unmitigated', 'db-failover', 'db-failover-unmitigated'],
    mutants: ['epoch-reset-after-restore'],
  }],
  ['federation-authority', 'federation authority integration passes', {
    note: 'No scenario exercises a federation authority yet. ' + NOT_MODELLED,
  }],
  ['chaos-stress', 'chaos/concurrency stress tests pass', {
    scenarios: ['standard-mix', 'swarm-mix', 'split-brain-partition', 'controller-crash-reconcile', 'db-crash', 'db-failover', 'clock-skew', 'semaphore-capacity', 'fairness-starvation', 'renewal-race', 'displaced-waiter-recheck'],
  }],
];

const SEED_001_GATES: ReadonlyArray<Line> = [
  ['three-node-failover', '3-node failover proven', {
    scenarios: ['three-node-failover', 'controller-crash-reconcile'],
    mutants: ['boolean-leader-flag'],
  }],
  ['scheduler-epoch-fencing', 'scheduler epoch fencing proven', {
    scenarios: ['scheduler-epoch', 'stale-leader-epoch', 'release-coordinator-epoch', 'deployment-coordinator-epoch'],
    mutants: ['lease-without-scheduler-epoch', 'boolean-leader-flag'],
  }],
  ['membership-lifecycle', 'membership lifecycle tested', {
    scenarios: ['membership-change'],
    mutants: ['removed-leader-keeps-role'],
    note: 'Membership is a committed configuration of the abstract consensus (one change at a time); Raft joint consensus itself is not simulated.',
  }],
  ['quorum-loss-degraded', 'quorum-loss degraded behavior tested', {
    scenarios: ['quorum-loss', 'minority-partition', 'db-healthy-coordination-lost', 'coordination-healthy-db-lost'],
  }],
  ['agent-api-failover', 'agent/API failover works', { note: 'Agents and API daemons are not simulated. ' + NOT_MODELLED }],
  ['rolling-upgrade', 'rolling upgrades tested', { note: 'Version/capability gating is not simulated. ' + NOT_MODELLED }],
  ['snapshot-restart', 'snapshot/restart tested', {
    scenarios: ['restart-incarnation'],
    note: 'Covers restart with a new incarnation; Raft snapshots are not simulated.',
  }],
  ['cluster-doctor', 'cluster doctor available', { note: 'The cluster doctor is outside this testbed.' }],
  ['node-mtls-revocation', 'node mTLS/revocation complete', { note: 'Transport security is outside this testbed.' }],
  ['dr-procedure', 'DR procedure exercised', {
    scenarios: ['restore', 'restore-unmitigated', 'db-failover', 'db-failover-unmitigated'],
    mutants: ['epoch-reset-after-restore'],
    note: 'Covers the lease layer of DR (restore and failover invalidate leases, scopes stay blocked until reconciled); business-state recovery is not exercised.',
  }],
  ['chaos', 'chaos tests pass', {
    scenarios: ['three-node-failover', 'minority-partition', 'quorum-loss', 'stale-leader-epoch', 'split-brain-partition', 'db-healthy-coordination-lost', 'coordination-healthy-db-lost'],
  }],
];

const SEED_000_ACCEPTANCE: ReadonlyArray<Line> = [
  ['locks-not-business-truth', 'Locks/leases never become canonical business truth.', { note: 'An architectural rule; no run can prove it.' }],
  ['typed-scope-identity', 'Exclusive scopes have typed canonical identity.', { suites: ['scope-identity'] }],
  ['one-owner-per-scope', 'One accepted lease owner exists per exclusive scope.', {
    scenarios: ['split-brain-partition', 'renewal-race', 'paused-holder-expiry', 'standard-mix'],
    mutants: ['advisory-lock-only', 'client-clock-expiry'],
  }],
  ['higher-fencing-token', 'Every new owner receives a higher fencing token.', {
    scenarios: ['lease-expiry-new-epoch', 'force-release-observed-epoch', 'db-failover', 'restore'],
    mutants: ['epoch-reset-after-restore'],
  }],
  ['stale-holder-rejected', 'Stale holders cannot mutate protected state.', {
    scenarios: ['stale-holder', 'paused-holder-expiry', 'clock-skew'],
    mutants: ['no-fencing-check', 'renewal-without-epoch-check'],
  }],
  ['expiry-not-effect-absence', 'Lease expiry does not imply external effect absence.', {
    scenarios: ['provider-timeout-unknown', 'cancel-keeps-lease'],
    mutants: ['blind-retry-after-timeout'],
  }],
  ['ambiguous-effects-reconcile', 'Ambiguous external effects reconcile before new ownership proceeds.', {
    scenarios: ['provider-timeout-unknown', 'controller-crash-reconcile'],
    mutants: ['blind-retry-after-timeout', 'unknown-treated-as-failure'],
  }],
  ['aggregate-version-separate', 'Aggregate versioning remains separate from lease ownership.', { suites: ['conformance'] }],
  ['idempotency-key-scoped', 'Idempotency key is scoped by operation/subject/tenant.', { suites: ['idempotency'] }],
  ['digest-mismatch-rejected', 'Same key with different request digest is rejected.', {
    scenarios: ['idempotency-different-request'],
    suites: ['idempotency'],
  }],
  ['unknown-not-new-operation', 'Unknown idempotency outcome does not create a new operation automatically.', {
    scenarios: ['provider-timeout-unknown'],
    mutants: ['unknown-treated-as-failure'],
  }],
  ['retry-safety-declared', 'Provider mutations declare retry safety.', { suites: ['conformance'] }],
  ['no-blind-retry', 'Generic blind retry middleware is not used for non-idempotent writes.', {
    scenarios: ['provider-timeout-unknown'],
    mutants: ['blind-retry-after-timeout'],
  }],
  ['concurrency-groups-explicit', 'Workflow concurrency groups support queue/cancel/reject explicitly.', {
    scenarios: ['cancel-previous-non-supersedable'],
  }],
  ['non-supersedable-protected', 'Non-supersedable protected operations cannot be cancelled by ordinary CancelPrevious.', {
    scenarios: ['cancel-previous-non-supersedable'],
  }],
  ['multi-resource-composite', 'Multi-resource acquisition uses composite scope/order/compensation.', {
    scenarios: ['multi-resource-compensation', 'deadlock-order'],
  }],
  ['deadlock-avoidance-designed', 'Deadlock avoidance is designed, not reactive only.', { scenarios: ['deadlock-order'] }],
  ['reservations-within-capacity', 'Reservations do not exceed resource capacity.', {
    scenarios: ['semaphore-capacity'],
    mutants: ['semaphore-off-by-one'],
  }],
  ['reservations-expire', 'Device/test-account reservations expire and reconcile.', {
    scenarios: ['semaphore-capacity'],
    note: 'Covers reservation expiry in the store; device and test-account reconciliation is outside this testbed.',
  }],
  ['force-release-exact', 'Force release requires exact scope/epoch/privilege/audit.', {
    scenarios: ['force-release-observed-epoch'],
    mutants: ['key-only-force-release'],
  }],
  ['failover-no-stale-continuation', 'Controller failover does not allow stale owner continuation.', {
    scenarios: ['controller-crash-reconcile', 'renewal-failure-stops-holder', 'stale-holder'],
    mutants: ['holder-not-stopped-on-renewal-failure'],
  }],
  ['no-process-local-mutex', 'Process-local mutexes are never distributed correctness primitives.', {
    scenarios: ['split-brain-partition'],
    mutants: ['advisory-lock-only'],
  }],
  ['postgres-same-semantics', 'Postgres/Stoolap implementations preserve same semantic model.', {
    scenarios: ['standard-mix@postgres'],
    suites: ['check-postgres', 'check-mutants', 'conformance-postgres', 'differential-postgres'],
    note: 'PostgreSQL only; there is no Stoolap adapter.',
  }],
  ['federation-fences-site', 'Federation authority fences site-local ownership.', { note: 'No scenario exercises a federation authority yet. ' + NOT_MODELLED }],
  ['restore-invalidates-leases', 'Restore invalidates stale pre-restore leases.', {
    scenarios: ['restore', 'restore-unmitigated'],
    mutants: ['epoch-reset-after-restore'],
  }],
  ['reconcile-before-reopen', 'Protected scopes reconcile before reopening after DR.', { scenarios: ['restore', 'db-failover'] }],
  ['contention-observable', 'High contention is observable.', {
    scenarios: ['fairness-starvation'],
    note: 'Wait times are plotted from the Enqueue→Acquired pairs of each kept history.',
  }],
  ['tenant-scopes-isolated', 'Tenant-generated scope names cannot collide with system scopes.', {
    scenarios: ['tenant-isolation'],
    suites: ['scope-identity'],
  }],
  ['lease-history-retained', 'Lease history is retained according lifecycle/audit policy.', { note: 'Retention policy is not modelled; tombstones are kept forever in the model.' }],
  ['dogfooding', 'Forgeyard dogfoods the subsystem for deployment, infra apply, merge submission, device leases, release aliases, and workflow concurrency.', {
    note: 'Dogfooding is a property of the product integrations, outside this testbed.',
  }],
];

const RAFT_INTERNALS = 'Raft internals are not simulated. ' + NOT_MODELLED;
const OUTSIDE = 'A property of the deployed product, outside this testbed.';

const SEED_001_ACCEPTANCE: ReadonlyArray<Line> = [
  ['postgres-metadata-authority', 'PostgreSQL remains business metadata authority.', { scenarios: ['coordination-healthy-db-lost'] }],
  ['cas-not-in-raft', 'CAS bytes never enter Raft.', { note: RAFT_INTERNALS }],
  ['run-job-not-in-raft', 'Run/Job rows never enter Raft.', { note: RAFT_INTERNALS }],
  ['raft-state-bounded', 'Raft state remains narrow and bounded.', { note: RAFT_INTERNALS }],
  ['one-leader-elected', 'Three-node cluster elects one leader.', { scenarios: ['three-node-failover'], mutants: ['boolean-leader-flag'] }],
  ['minority-cannot-commit', 'Isolated minority cannot commit coordination writes.', { scenarios: ['minority-partition'] }],
  ['old-leader-fenced', 'Old leader cannot create authoritative new leases after fencing.', {
    scenarios: ['stale-leader-epoch', 'scheduler-epoch'],
    mutants: ['lease-without-scheduler-epoch'],
  }],
  ['scheduler-carries-epoch', 'Scheduler mutations carry current epoch/guard.', {
    scenarios: ['scheduler-epoch'],
    mutants: ['lease-without-scheduler-epoch'],
  }],
  ['leadership-loss-invalidates-guard', 'Leadership loss invalidates role guard.', {
    scenarios: ['stale-leader-epoch'],
    mutants: ['boolean-leader-flag'],
  }],
  ['restart-new-incarnation', 'Restarted node gets new incarnation.', { scenarios: ['restart-incarnation'] }],
  ['learner-before-voter', 'New member joins as learner before voter.', { scenarios: ['membership-change'] }],
  ['removed-node-no-authority', 'Removed node cannot keep coordination authority.', { scenarios: ['membership-change'], mutants: ['removed-leader-keeps-role'] }],
  ['quorum-loss-blocks', 'Quorum loss blocks coordination-sensitive operations.', { scenarios: ['quorum-loss', 'db-healthy-coordination-lost'] }],
  ['existing-attempts-continue', 'Existing valid job attempts can continue according to DB lease semantics.', { scenarios: ['db-healthy-coordination-lost'] }],
  ['leader-reconstructs-from-db', 'New leader reconstructs scheduler/release/deploy work from DB.', {
    scenarios: ['three-node-failover', 'controller-crash-reconcile'],
  }],
  ['no-in-memory-leader-state', 'No correctness depends on in-memory leader state.', {
    scenarios: ['three-node-failover'],
    mutants: ['boolean-leader-flag'],
  }],
  ['api-any-daemon', 'API clients can hit any healthy daemon.', { note: 'API daemons are not simulated. ' + NOT_MODELLED }],
  ['agent-reconnect', 'Agent can reconnect to another daemon after failure.', { note: 'Agents are not simulated. ' + NOT_MODELLED }],
  ['stream-reconnect-backfill', 'SSE/WS reconnect/backfill handles API node loss.', { note: 'Event streams are not simulated. ' + NOT_MODELLED }],
  ['release-promotion-fenced', 'Release promotion never relies only on process-local lock.', {
    scenarios: ['release-coordinator-epoch'],
    mutants: ['advisory-lock-only'],
  }],
  ['deployment-actions-fenced', 'Deployment exclusive actions are fenced where required.', { scenarios: ['deployment-coordinator-epoch'] }],
  ['rolling-upgrade-matrix', 'Rolling upgrade supports declared N/N-1 matrix.', { note: 'Version/capability gating is not simulated. ' + NOT_MODELLED }],
  ['feature-activation-waits', 'Cluster feature activation waits for compatible voters.', { note: 'Version/capability gating is not simulated. ' + NOT_MODELLED }],
  ['raft-log-compacted', 'Raft log/snapshots are bounded/compacted.', { note: RAFT_INTERNALS }],
  ['raft-corruption-fails-safe', 'Local Raft storage corruption fails safe.', { note: RAFT_INTERNALS }],
  ['dr-preserves-business-state', 'DR recovery preserves PostgreSQL/CAS business state.', { note: 'Business-state recovery is not exercised; the restore scenarios cover the lease layer only.' }],
  ['membership-audited', 'Cluster membership changes are audited.', {
    scenarios: ['membership-change'],
    note: 'The audit record is the versioned membership-change event naming the leader that committed it; learner-before-voter fails a change without one. The operator\'s identity and permissions are not modelled.',
  }],
  ['node-mtls', 'Node-to-node traffic uses mTLS.', { note: 'Transport security is outside this testbed.' }],
  ['no-raw-coordination-api', 'Public API cannot submit raw coordination commands.', { note: 'The public API is outside this testbed.' }],
  ['standalone-same-semantics', 'Standalone uses same coordination semantics without network Raft.', {
    scenarios: ['standalone-coordination'],
    note: 'One voter, no network between voters: each incarnation takes a new term and epoch and the same invariants hold. With a single node a stale leader is a dead process, so the epoch mutants are caught on the cluster scenarios, not here.',
  }],
  ['wan-raft-not-required', 'WAN/global Raft is not required for initial production.', { note: OUTSIDE }],
  ['kubernetes-not-authority', 'Kubernetes does not become hidden coordination authority.', { note: OUTSIDE }],
  ['typed-role-guard', 'Typed RoleGuard replaces boolean leader checks in high-risk paths.', {
    scenarios: ['scheduler-epoch'],
    mutants: ['boolean-leader-flag'],
  }],
  ['no-split-authority', 'Chaos tests show no split authoritative lease/promotion.', {
    scenarios: ['split-brain-partition', 'minority-partition', 'three-node-failover', 'stale-leader-epoch'],
  }],
  ['own-ha-dogfood', 'Forgeyard’s own HA deployment uses this coordination architecture.', { note: OUTSIDE }],
];

function definitions(source: string, lines: ReadonlyArray<Line>): GateDefinition[] {
  const prefix = source.replace(' §', '-');
  return lines.map(([slug, title, entry]) => ({
    id: `${prefix}-${slug}`,
    title,
    source,
    proofs: { scenarios: entry.scenarios ?? [], mutants: entry.mutants ?? [], suites: entry.suites ?? [] },
    ...(entry.note === undefined ? {} : { note: entry.note }),
  }));
}

/** Gates first (the release decision), then the acceptance tests behind them. */
export const GATE_CATALOGUE: ReadonlyArray<GateDefinition> = Object.freeze([
  ...definitions('000 §316', SEED_000_GATES),
  ...definitions('001 §339', SEED_001_GATES),
  ...definitions('000 §315', SEED_000_ACCEPTANCE),
  ...definitions('001 §338', SEED_001_ACCEPTANCE),
]);
