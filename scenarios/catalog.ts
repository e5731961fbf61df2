// The built-in scenarios, as plain data (validated by schema.ts on load); leaseScenario
// (profiles.ts) fills in what the lease scenarios share. Each cites the seed sections it proves.
// Names are stable once published; `-unmitigated` ones demonstrate a violation.
// The scenarios of database crash, failover and restore are in catalog-recovery.ts; those of seed
// 001 (coordination) are in catalog-001.ts and come after those of seed 000; those of federation
// site authority (catalog-federation.ts) come last.

import { COORDINATION_SCENARIOS } from './catalog-001.ts';
import { RAFT_SCENARIOS } from './catalog-raft.ts';
import { CONCURRENCY_SCENARIOS } from './catalog-concurrency.ts';
import { FEDERATION_SCENARIOS } from './catalog-federation.ts';
import { HOLDER_SCENARIOS } from './catalog-holders.ts';
import { RECOVERY_SCENARIOS } from './catalog-recovery.ts';
import { RETRY_SCENARIOS } from './catalog-retries.ts';
import { DEPLOYS, SAFETY, leaseScenario } from './profiles.ts';
import type { ScenarioInput } from './schema.ts';


const SCENARIOS = [
  leaseScenario({
    name: 'paused-holder-expiry',
    title: 'A holder paused past its lease expiry cannot act on its old token',
    sources: ['000 §25', '000 §35', '000 §302'],
    workload: { controllers: 4, scopes: 2, mix: DEPLOYS, horizonMs: 12_000, leaseTtlMs: 1_500 },
    profile: { nemesisIntervalMs: 400, pauseProbabilityPct: 40, pauseMsMax: 4_000 },
  }),
  leaseScenario({
    name: 'lease-expiry-new-epoch',
    title: 'Expiry of a crashed holder gives the next owner a higher epoch',
    sources: ['000 §280', '000 §24', '000 §31'],
    workload: { controllers: 4, scopes: 2, mix: DEPLOYS, horizonMs: 12_000, leaseTtlMs: 1_000 },
    profile: { nemesisIntervalMs: 500, crashProbabilityPct: 25, restartDelayMs: 300 },
    invariants: [...SAFETY, 'no-blind-retry'],
  }),
  leaseScenario({
    name: 'stale-holder',
    title: "A stale holder's token is rejected at every protected boundary",
    sources: ['000 §281', '000 §26–28', '000 §114'],
    workload: { controllers: 5, scopes: 1, mix: DEPLOYS, horizonMs: 12_000, leaseTtlMs: 1_200 },
    profile: { nemesisIntervalMs: 300, pauseProbabilityPct: 30, pauseMsMax: 3_000, partitionProbabilityPct: 20, partitionMsMax: 2_500 },
  }),
  leaseScenario({
    name: 'renewal-race',
    title: 'Only the current epoch renews; late renewals are stale',
    sources: ['000 §282', '000 §33–34'],
    workload: { controllers: 4, scopes: 1, mix: { 'env-deploy': 1 }, horizonMs: 10_000, leaseTtlMs: 600, workMsMin: 100, workMsMax: 900 },
    profile: { networkDelayMsMax: 60, holdProbabilityPct: 5, holdMsMax: 150, nemesisIntervalMs: 300, pauseProbabilityPct: 25, pauseMsMax: 800 },
  }),
  leaseScenario({
    name: 'split-brain-partition',
    title: 'Under partitions (one-way too) only the highest accepted epoch mutates',
    sources: ['000 §160–162', '000 §302'],
    workload: { controllers: 5, scopes: 2, mix: DEPLOYS, horizonMs: 12_000, leaseTtlMs: 1_500 },
    profile: { nemesisIntervalMs: 300, partitionProbabilityPct: 40, oneWayPartitionPct: 50, partitionMsMax: 3_000 },
    invariants: [...SAFETY, 'no-blind-retry'],
  }),
  leaseScenario({
    name: 'clock-skew',
    title: 'Skewed and drifting controller clocks never give two valid owners',
    sources: ['000 §82', '000 §79–81'],
    workload: { controllers: 5, scopes: 1, mix: { 'env-deploy': 3, 'device-reservation': 1 }, horizonMs: 10_000, leaseTtlMs: 1_000 },
    profile: { networkDelayMsMax: 40, clockSkewMsMax: 5_000, clockDriftPpmMax: 20_000, nemesisIntervalMs: 500, pauseProbabilityPct: 20, pauseMsMax: 1_500 },
    invariants: [...SAFETY, 'capacity', 'capacity-refusal'],
  }),
  leaseScenario({
    name: 'controller-crash-reconcile',
    title: 'A crashed controller is replaced by a new incarnation that reconciles first',
    sources: ['000 §287', '001 §12–13', '000 §302'],
    workload: { controllers: 4, scopes: 2, mix: { ...DEPLOYS, migration: 1 }, horizonMs: 12_000, leaseTtlMs: 1_000 },
    profile: { nemesisIntervalMs: 400, crashProbabilityPct: 25, restartDelayMs: 200, providerTimeoutPct: 10, providerTimeoutAppliedPct: 50 },
    invariants: [...SAFETY, 'no-blind-retry'],
  }),
  leaseScenario({
    name: 'provider-timeout-unknown',
    title: 'A provider timeout is an unknown outcome: inspect before any retry, never release blindly',
    sources: ['000 §285', '000 §288', '000 §64–65', '000 §191–194'],
    workload: { controllers: 4, scopes: 2, mix: { ...DEPLOYS, migration: 1, 'api-request': 3 }, horizonMs: 12_000, leaseTtlMs: 1_500 },
    profile: { providerTimeoutPct: 25, providerTimeoutAppliedPct: 50 },
    invariants: [...SAFETY, 'no-blind-retry', 'unknown-not-new', 'idempotency-final'],
    operations: 50,
  }),
  leaseScenario({
    name: 'cancel-keeps-lease',
    title: 'Cancelling keeps the lease until the in-flight effect is reconciled',
    sources: ['000 §289', '000 §115–117'],
    workload: { controllers: 4, scopes: 2, mix: { 'cancel-deploy': 3, 'env-deploy': 1 }, horizonMs: 10_000, leaseTtlMs: 2_000 },
    profile: { networkDelayMsMax: 80, providerTimeoutPct: 10, providerTimeoutAppliedPct: 50 },
    // concurrency-group: a cancelled run starts no new side effect (§115–§117).
    invariants: [...SAFETY, 'no-blind-retry', 'concurrency-group'],
  }),
  leaseScenario({
    name: 'force-release-observed-epoch',
    title: 'Force release needs exact scope, the observed epoch, privilege and an audit record',
    sources: ['000 §290', '000 §200–206', '002 key-only-force-release'],
    workload: { controllers: 4, scopes: 1, mix: { 'env-deploy': 6, 'force-release': 3 }, horizonMs: 12_000, leaseTtlMs: 1_500, waitPct: 80 },
    profile: { nemesisIntervalMs: 400, crashProbabilityPct: 30, restartDelayMs: 2_000 },
    invariants: [...SAFETY, 'force-release-audited', 'force-release-judged', 'no-blind-retry'],
  }),
  leaseScenario({
    name: 'force-release-stalled-holders',
    title: 'Force release judged from observation removes only the stalled lease it watched, even from a live holder',
    sources: ['000 §200–206', '000 §290', '002 key-only-force-release', '002 022d1f8', '002 ebe1ab8', '002 b1a49c3'],
    // Holders pause and crash, so some leases stall while their holders are alive; the operator's
    // judgement and its force request can be held in the network while a holder comes back and
    // renews, or while a stalled lease expires and another controller takes the scope.
    workload: { controllers: 4, scopes: 1, mix: { 'env-deploy': 4, 'force-release': 6 }, horizonMs: 40_000, leaseTtlMs: 4_000, workMsMin: 1_000, workMsMax: 6_000, waitPct: 0, rpcTimeoutMs: 4_000 },
    profile: { networkDelayMsMax: 40, holdProbabilityPct: 30, holdMsMax: 1_500, nemesisIntervalMs: 800, pauseProbabilityPct: 40, pauseMsMax: 3_600, crashProbabilityPct: 10, restartDelayMs: 2_000 },
    invariants: [...SAFETY, 'force-release-audited', 'force-release-judged', 'no-blind-retry'],
    operations: 100,
  }),
  leaseScenario({
    name: 'deadlock-order',
    title: 'Canonical acquisition order prevents a cycle between multi-resource requests',
    sources: ['000 §291', '000 §99–105', '000 §108–109'],
    workload: { controllers: 4, scopes: 2, mix: { 'multi-resource': 1 }, horizonMs: 10_000, leaseTtlMs: 1_000, waitPct: 100, waitTimeoutMs: 5_000 },
    invariants: ['one-owner-per-epoch', 'lease-exclusive', 'fencing-monotonic', 'no-phantom-lease', 'no-lost-update', 'outcome-at-return', 'runs-do-work', 'liveness'],
    liveness: { boundMs: 15_000 },
  }),
  leaseScenario({
    name: 'multi-resource-compensation',
    title: 'A failed second reservation compensates the first (saga with expiry)',
    sources: ['000 §292', '000 §106–107', '000 §207'],
    workload: { controllers: 5, scopes: 2, mix: { 'device-reservation': 3, 'multi-resource': 1 }, horizonMs: 10_000, leaseTtlMs: 1_000, waitPct: 0 },
    profile: { nemesisIntervalMs: 500, crashProbabilityPct: 10, restartDelayMs: 300 },
    invariants: ['one-owner-per-epoch', 'lease-exclusive', 'fencing-monotonic', 'no-phantom-lease', 'no-lost-update', 'outcome-at-return', 'runs-do-work', 'capacity', 'capacity-refusal'],
  }),
  leaseScenario({
    name: 'semaphore-capacity',
    title: 'Two signing slots: capacity is never exceeded',
    sources: ['000 §293', '000 §93–96', '000 §140'],
    // A request may take both slots at once: capacity is counted in units, not in requests.
    workload: { controllers: 6, scopes: 1, mix: { 'signing-slot': 1 }, horizonMs: 8_000, leaseTtlMs: 1_000, unitsMax: 2 },
    profile: { nemesisIntervalMs: 500, pauseProbabilityPct: 20, pauseMsMax: 2_000 },
    invariants: ['capacity', 'capacity-refusal'],
  }),
  leaseScenario({
    name: 'fairness-starvation',
    title: 'Waiters are served FIFO with aging; every waiter completes within the bound',
    sources: ['000 §294', '000 §86–92'],
    // More work than the horizon holds, so queues grow long enough for priority and aging to decide
    // the order; a fifth of the requests try once without waiting and must not jump the queue.
    workload: { controllers: 6, scopes: 1, mix: { 'env-deploy': 1 }, horizonMs: 8_000, leaseTtlMs: 1_000, workMsMin: 300, workMsMax: 900, waitPct: 80, waitTimeoutMs: 30_000 },
    invariants: ['one-owner-per-epoch', 'lease-exclusive', 'fencing-monotonic', 'no-phantom-lease', 'no-lost-update', 'outcome-at-return', 'runs-do-work', 'liveness'],
    operations: 30,
    liveness: { boundMs: 30_000 },
  }),
  leaseScenario({
    name: 'tenant-isolation',
    title: "Tenant-qualified scopes: one tenant never acquires another tenant's scope",
    sources: ['000 §295', '000 §242–250', '003 01a4da3'],
    workload: { controllers: 4, tenants: 3, scopes: 1, mix: { 'env-deploy': 2, 'cross-tenant': 1 }, horizonMs: 10_000, leaseTtlMs: 1_000 },
    profile: { nemesisIntervalMs: 500, pauseProbabilityPct: 20, pauseMsMax: 2_000 },
    invariants: [...SAFETY, 'tenant-isolation'],
  }),
  leaseScenario({
    name: 'idempotency-different-request',
    title: 'Same idempotency key with a different request digest is always a conflict',
    sources: ['000 §284', '000 §46–47', '000 §283'],
    workload: { controllers: 4, scopes: 2, mix: { 'api-request': 3, 'api-conflict': 2 }, horizonMs: 8_000 },
    profile: { providerTimeoutPct: 15, providerTimeoutAppliedPct: 50 },
    invariants: ['digest-conflict', 'idempotency-scope', 'idempotency-final', 'unknown-not-new', 'no-blind-retry'],
  }),
  leaseScenario({
    name: 'cancel-previous-non-supersedable',
    title: 'CancelPrevious supersedes only supersedable runs, the newest admission wins, and a cancelled run releases after reconciling',
    sources: ['000 §119–121', '000 §10–17', '000 §305', '003 admission-order'],
    workload: { controllers: 4, scopes: 4, mix: { 'workflow-group': 1 }, horizonMs: 10_000, leaseTtlMs: 1_500 },
    profile: { networkDelayMsMax: 40 },
    invariants: [...SAFETY, 'concurrency-group'],
  }),
  leaseScenario({
    name: 'renewal-failure-stops-holder',
    title: 'A holder whose renewal fails enters OwnershipUncertain and starts no new side effect',
    sources: ['000 §157–159', '003 refresh-error-cancels-handler'],
    workload: { controllers: 4, scopes: 1, mix: { 'env-deploy': 3, 'device-reservation': 1 }, horizonMs: 12_000, leaseTtlMs: 700, workMsMin: 200, workMsMax: 800, waitPct: 100, waitTimeoutMs: 8_000 },
    profile: { nemesisIntervalMs: 300, pauseProbabilityPct: 30, pauseMsMax: 2_000, partitionProbabilityPct: 10, partitionMsMax: 1_500 },
    invariants: [...SAFETY, 'capacity', 'capacity-refusal'],
  }),
  ...HOLDER_SCENARIOS,
  leaseScenario({
    name: 'displaced-waiter-recheck',
    title: 'A waiter that gets the lease re-checks ownership before acting',
    sources: ['000 §86–90', '003 displaced-waiter'],
    // A grant's reply can sit in the network for longer than most of the lease (a call and its reply
    // still fit in the RPC timeout): the waiter that reads it late holds a lease about to expire.
    workload: { controllers: 5, scopes: 1, mix: { 'env-deploy': 1, 'workflow-group': 1 }, horizonMs: 10_000, leaseTtlMs: 700, workMsMin: 20, workMsMax: 150, waitPct: 100, waitTimeoutMs: 6_000, rpcTimeoutMs: 4_000 },
    profile: { networkDelayMsMax: 30, holdProbabilityPct: 20, holdMsMax: 1_500, nemesisIntervalMs: 400, pauseProbabilityPct: 25, pauseMsMax: 1_200 },
  }),
  ...RECOVERY_SCENARIOS,
  ...CONCURRENCY_SCENARIOS,
  ...RETRY_SCENARIOS,
  leaseScenario({
    name: 'lease-handoff',
    title: 'Handoff moves ownership atomically under a new token; the old holder is fenced',
    sources: ['000 §110–114', '000 §24'],
    workload: { controllers: 4, scopes: 1, mix: { migration: 2, 'env-deploy': 1 }, horizonMs: 10_000, leaseTtlMs: 1_000 },
    profile: { nemesisIntervalMs: 400, pauseProbabilityPct: 25, pauseMsMax: 2_000 },
  }),
  leaseScenario({
    name: 'provider-fencing',
    title: 'An effect request delayed past its lease is refused by the provider on its token',
    sources: ['000 §26–28', '000 §281', '002 unfenced-remote-holder'],
    // Messages may be held for much longer than a lease lives (a call and its reply still fit in
    // the RPC timeout) and holders pause: an effect request sent under a valid lease can reach the
    // provider after the next owner's.
    workload: { controllers: 4, scopes: 1, mix: { 'env-deploy': 1 }, horizonMs: 10_000, leaseTtlMs: 300, workMsMin: 20, workMsMax: 80, rpcTimeoutMs: 5_000 },
    profile: { holdProbabilityPct: 15, holdMsMax: 2_000, nemesisIntervalMs: 100, pauseProbabilityPct: 30, pauseMsMax: 1_000 },
    invariants: [...SAFETY, 'no-blind-retry'],
    operations: 60,
  }),
  leaseScenario({
    name: 'idempotency-unknown-outcome',
    title: 'An unknown outcome stays unknown until reconciled: a retry with the same key is never new',
    sources: ['000 §52–53', '000 §285', '000 §64–65'],
    // Few keys, many retries; provider timeouts make outcomes unknown and partitions keep the
    // provider out of reach of the incarnation that should inspect them.
    // Half the requests would start again after a terminal failure: not after an unknown one.
    workload: { controllers: 4, scopes: 1, mix: { 'api-request': 1 }, horizonMs: 8_000, retryAfterTerminalPct: 50 },
    profile: { providerTimeoutPct: 20, providerTimeoutAppliedPct: 50, nemesisIntervalMs: 400, partitionProbabilityPct: 30, partitionMsMax: 2_000 },
    invariants: ['unknown-not-new', 'digest-conflict', 'idempotency-scope', 'idempotency-final', 'no-blind-retry'],
  }),
  leaseScenario({
    name: 'idempotency-late-completion',
    title: 'A request that outlives its idempotency record completes late: its outcome never lands on the record another request took the key with',
    sources: ['000 §46–47', '000 §284', '000 §43–45'],
    // Records kept 150 ms while provider timeouts make requests run for up to a second: a record
    // expires under its running request, another request (another digest) takes the key, and the
    // first one's IdempotencyComplete arrives on the second one's record.
    workload: { controllers: 4, scopes: 1, mix: { 'api-request': 1, 'api-conflict': 2 }, horizonMs: 8_000, idempotencyRetentionMs: 150 },
    profile: { providerTimeoutPct: 40, providerTimeoutAppliedPct: 50 },
    invariants: ['digest-conflict', 'idempotency-scope', 'idempotency-final'],
    operations: 60,
  }),
  leaseScenario({
    name: 'swarm-mix',
    title: 'Swarm: the seed picks the fault mix over every workload',
    sources: ['000 §299–302', '000 §300'],
    workload: {
      controllers: 5,
      scopes: 2,
      mix: { ...DEPLOYS, migration: 1, 'api-request': 2, 'signing-slot': 1, 'device-reservation': 1, 'workflow-group': 1 },
      horizonMs: 12_000,
      leaseTtlMs: 1_500,
    },
    swarm: true,
    profile: { nemesisIntervalMs: 400, pauseProbabilityPct: 20, pauseMsMax: 2_500, crashProbabilityPct: 10, restartDelayMs: 300, partitionProbabilityPct: 15, partitionMsMax: 2_000, providerTimeoutPct: 10, providerTimeoutAppliedPct: 50, messageLossPct: 2, clockSkewMsMax: 2_000, clockDriftPpmMax: 10_000 },
    invariants: [...SAFETY, 'no-blind-retry', 'unknown-not-new', 'idempotency-final', 'capacity', 'capacity-refusal', 'concurrency-group'],
    operations: 60,
  }),
  leaseScenario({
    name: 'standard-mix',
    // 24 scheduled operations expand into about 200 client operations (calls, heartbeats, waits):
    // the standard 200-operation scenario of the throughput target (docs/ARCHITECTURE.md "Performance targets").
    title: 'Standard 200-operation mix of every workload under moderate faults (throughput)',
    sources: ['000 §301', '000 §315'],
    workload: {
      controllers: 8,
      tenants: 2,
      scopes: 3,
      mix: { ...DEPLOYS, migration: 1, 'api-request': 3, 'api-conflict': 1, 'signing-slot': 2, 'device-reservation': 1, 'workflow-group': 2, 'multi-resource': 1, 'cancel-deploy': 1 },
      horizonMs: 20_000,
      leaseTtlMs: 1_500,
    },
    profile: { nemesisIntervalMs: 1_000, pauseProbabilityPct: 15, pauseMsMax: 2_000, crashProbabilityPct: 5, restartDelayMs: 300, partitionProbabilityPct: 10, partitionMsMax: 1_500, providerTimeoutPct: 5, providerTimeoutAppliedPct: 50 },
    invariants: [...SAFETY, 'no-blind-retry', 'unknown-not-new', 'digest-conflict', 'idempotency-scope', 'idempotency-final', 'capacity', 'capacity-refusal', 'concurrency-group'],
    operations: 24,
  }),
  ...COORDINATION_SCENARIOS,
  ...RAFT_SCENARIOS,
  ...FEDERATION_SCENARIOS,
] satisfies ReadonlyArray<ScenarioInput>;

/** The name of a built-in scenario: a name written where one is expected (a mutant's `scenarios`) is checked against it. */
export type ScenarioName = (typeof SCENARIOS)[number]['name'];

export const CATALOG: ReadonlyArray<ScenarioInput> = SCENARIOS;
