// The architectural invariants of seed 000 §317 and seed 001 §340 as rows. Most restate an
// acceptance test or gate; such a row is proved by the same evidence (`like`), so that the two
// can never disagree. The rest say why nothing in the testbed can prove them.

import type { Entry, Line } from './gate-definition.ts';
import { SEED_000_ACCEPTANCE, SEED_000_GATES } from './gate-lines-000.ts';
import { SEED_001_ACCEPTANCE, SEED_001_GATES } from './gate-lines-001.ts';
import { DOGFOOD, OUTSIDE } from './gate-notes.ts';

const ROWS: ReadonlyArray<Line> = [...SEED_000_GATES, ...SEED_000_ACCEPTANCE, ...SEED_001_GATES, ...SEED_001_ACCEPTANCE];

/** The evidence of the gate or acceptance row `slug` (it must exist). */
function like(slug: string): Entry {
  const row = ROWS.find(([s]) => s === slug);
  if (row === undefined) throw new Error(`gate-lines-invariants: no row '${slug}' to share evidence with`);
  return row[2];
}

const ARCHITECTURAL = 'An architectural rule of the product; no run can prove it.';

export const SEED_000_INVARIANTS: ReadonlyArray<Line> = [
  ['inv-locks-coordinate', 'locks coordinate; they do not define business truth', { note: ARCHITECTURAL }],
  ['inv-scopes-typed', 'every exclusive scope is typed', like('typed-scope-identity')],
  ['inv-transfer-increments-token', 'every ownership transfer increments fencing token', like('higher-fencing-token')],
  ['inv-stale-owners-cannot-mutate', 'stale owners cannot mutate', like('stale-holder-rejected')],
  ['inv-expiry-not-effect-stopped', 'lease expiry is not proof external effect stopped', like('expiry-not-effect-absence')],
  ['inv-reconciliation-follows-ambiguity', 'reconciliation follows ambiguity', like('ambiguous-effects-reconcile')],
  ['inv-aggregate-version-separate', 'business aggregate version remains separate', like('aggregate-version-separate')],
  ['inv-idempotency-scope', 'idempotency scope includes operation/subject/tenant', like('idempotency-key-scoped')],
  ['inv-same-key-different-request', 'same key/different request is conflict', like('digest-mismatch-rejected')],
  ['inv-unknown-first-class', 'Unknown outcome is first-class', like('unknown-not-new-operation')],
  ['inv-no-generic-retry', 'generic mutation retry is forbidden', like('no-blind-retry')],
  ['inv-groups-explicit', 'concurrency groups are explicit', like('concurrency-groups-explicit')],
  ['inv-supersession-policy-bound', 'supersession is policy-bound', like('non-supersedable-protected')],
  ['inv-non-supersedable-protected', 'non-supersedable operations stay protected', like('non-supersedable-protected')],
  ['inv-no-arbitrary-nesting', 'multi-resource acquisition avoids arbitrary nesting', like('multi-resource-composite')],
  ['inv-deadlock-deterministic', 'deadlock prevention is deterministic', like('deadlock-avoidance-designed')],
  ['inv-reservations-not-leases', 'reservations differ from leases', like('reservations-expire')],
  ['inv-capacity-enforced', 'semaphore capacity is enforced', like('reservations-within-capacity')],
  ['inv-force-release-audited', 'force release is high-risk/audited', like('force-release-exact')],
  ['inv-no-process-mutex', 'process mutexes are not distributed correctness', like('no-process-local-mutex')],
  ['inv-postgres-same-semantics', 'Postgres/Stoolap share semantics', like('postgres-same-semantics')],
  ['inv-site-authority-first', 'site authority precedes local concurrency', like('federation-fences-site')],
  ['inv-restore-invalidates', 'restore invalidates stale ownership', like('restore-invalidates-leases')],
  ['inv-reconcile-after-dr', 'protected scopes reconcile after DR', like('reconcile-before-reopen')],
  ['inv-tenant-isolated', 'tenant scopes are isolated', like('tenant-scopes-isolated')],
  ['inv-epochs-not-leases', 'coordination epochs/leader election do not replace business leases', like('scheduler-carries-epoch')],
  ['inv-contention-observable', 'observability exposes contention/unknown states', like('contention-observable')],
  ['inv-history-retained', 'lifecycle retains needed ownership history', like('lease-history-retained')],
  ['inv-ha-reconciles', 'HA controllers recover through reconciliation', like('failover-no-stale-continuation')],
  ['inv-dogfood', 'Forgeyard dogfoods its own concurrency primitives', { note: OUTSIDE }],
];

export const SEED_001_INVARIANTS: ReadonlyArray<Line> = [
  ['inv-raft-not-business-db', 'Raft is not the business database', like('run-job-not-in-raft')],
  ['inv-postgres-authority', 'PostgreSQL/Neon remains metadata authority', like('postgres-metadata-authority')],
  ['inv-cas-authority', 'CAS remains artifact/data authority', {
    scenarios: ['cas-outage', 'raft-failover'],
    invariants: ['artifact-from-cas', 'raft-log-narrow'],
    note: 'Jobs have artifacts in a content-addressed store beside the coordination layer; each attempt fetches its job’s artifact by digest before the effect. While the store is out, attempts give their jobs back and the cluster goes on; every job finishes once it is back. An attempt that acts without its artifact, or a log that carries artifact bytes, is caught. Artifact bytes and their encoding are not simulated, only digests and sizes.',
  }],
  ['inv-coordination-bounded', 'coordination state is small and bounded', like('raft-state-bounded')],
  ['inv-one-leader-per-term', 'one valid consensus leader per term', like('one-leader-elected')],
  ['inv-epochs-fence', 'epochs fence stale leaders', like('old-leader-fenced')],
  ['inv-typed-role-guard', 'high-risk role mutations require typed RoleGuard', like('typed-role-guard')],
  ['inv-old-guards-fenced', 'old guards cannot mutate after epoch advance', like('leadership-loss-invalidates-guard')],
  ['inv-scheduler-lease-db', 'scheduler lease correctness remains DB-transactional', like('scheduler-carries-epoch')],
  ['inv-coordination-strengthens', 'coordination strengthens, not replaces, DB invariants', like('existing-attempts-continue')],
  ['inv-membership-authoritative', 'membership is Raft-authoritative', like('membership-lifecycle')],
  ['inv-learners-first', 'new voters catch up as learners first', like('learner-before-voter')],
  ['inv-quorum-loss-stops', 'quorum loss stops consensus-sensitive writes', like('quorum-loss-blocks')],
  ['inv-business-state-readable', 'existing persisted business state remains readable/reconcilable', like('dr-preserves-business-state')],
  ['inv-leaders-from-db', 'new leaders reconstruct from DB, not memory', like('leader-reconstructs-from-db')],
  ['inv-api-non-leader', 'API can be served by non-leader nodes', like('api-any-daemon')],
  ['inv-agents-reconnect', 'agents can reconnect to any valid daemon endpoint', like('agent-reconnect')],
  ['inv-node-identity', 'node identity is not pod/hostname', like('restart-new-incarnation')],
  ['inv-mtls', 'cluster node mTLS is mandatory', like('node-mtls')],
  ['inv-no-raw-raft', 'public clients cannot issue raw Raft commands', like('no-raw-coordination-api')],
  ['inv-actions-audited', 'membership/recovery actions are audited', like('membership-audited')],
  ['inv-rolling-upgrades', 'rolling upgrades respect protocol/state compatibility', like('rolling-upgrade-matrix')],
  ['inv-snapshots-compact', 'coordination snapshots are compact and versioned', {
    scenarios: ['raft-compaction', 'raft-rolling-upgrade'],
    invariants: ['raft-log-bounded', 'raft-state-machine-safety', 'raft-leader-completeness', 'feature-activation'],
    note: 'Compact: voters keep at most `snapshotEntries` applied entries beyond their snapshot. Versioned: a snapshot carries the highest command version it was built from, and a voter whose binary cannot read it refuses it; the rolling upgrade runs with compaction. Snapshot files and their encoding are not simulated.',
  }],
  ['inv-dr-no-invented-cluster', 'DR never silently invents a new cluster from stale state', like('dr-procedure')],
  ['inv-wan-optional', 'global/WAN Raft is optional, not baseline', like('wan-raft-not-required')],
  ['inv-k8s-not-authority', 'K8s leader election is not hidden authority', like('kubernetes-not-authority')],
  ['inv-maintenance-coordinated', 'maintenance state can be globally coordinated', {
    scenarios: ['maintenance-window'],
    invariants: ['maintenance-respected'],
    note: 'An operator sets maintenance states through the leader, committed with a majority and a monotonic maintenance epoch, while leaders crash and pause; no dispatch under the epoch in force starts while the state stops scheduling. A change kept on the daemon that received it, or a role loop that never looks, is caught. The read-only and write gates of business APIs are not modelled.',
  }],
  ['inv-standalone-same', 'standalone shares role/epoch semantics through local backend', like('standalone-same-semantics')],
  ['inv-reconciliation-follows-failover', 'reconciliation follows leadership/failover', like('leader-reconstructs-from-db')],
  ['inv-dogfood-ha', 'Forgeyard dogfoods its HA system', { note: DOGFOOD }],
];
