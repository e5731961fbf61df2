// The policy mutants of the controller's client protocol: what a controller does with its lease,
// its effects, its concurrency groups and a force release (seed 000, and the real races of seeds
// 002 and 003), and with the role the coordination layer gave it (seed 001's role guard, its
// removal). One entry a mutant: its name, the one flag of model/controller-policy.ts it flips, and
// what it breaks and what must catch it (mutants/entry.ts says how to write one).

import { mutantTable, type PolicyMutant } from '../entry.ts';

export const CLIENT_PROTOCOL_MUTANTS = mutantTable<PolicyMutant>({
  // Seed 003 (commit 0892821, "cancel handlers when the lease refresh loop errors out": "the lease
  // expires at TTL while the handler ... would keep running unserialized"), seed 000 §157–§160
  // (renewal failure → OwnershipUncertain, no new side effects); seed 002 544eda0 ("every deferred
  // lock holder is now cancelled when its lease is lost ... so a force release from another
  // instance actually stops the victim"). The controller sees its renewal fail and keeps working as
  // if it still owned the scope.
  'holder-not-stopped-on-renewal-failure': {
    bug: 'a holder whose renewal fails keeps starting side effects instead of entering OwnershipUncertain',
    source: '003 commit 0892821; 002 544eda0; 000 §157–§160',
    rows: ['000-316-stale-owner-mutation', '000-315-failover-no-stale-continuation', '000-317-inv-ha-reconciles'],
    rule: 'one-owner-per-epoch: a holder whose renewal failed starts no new side effect (OwnershipUncertain)',
    invariants: ['one-owner-per-epoch', 'lease-exclusive'],
    scenarios: ['renewal-failure-stops-holder', 'force-release-stalled-holders', 'paused-holder-expiry', 'standard-mix'],
    flips: 'stopOnRenewalFailure',
  },
  // Seed 002 "Why staged" item 2 ("the burst refresh loop must be stoppable while a member runs
  // (bound the ExtendLock call)"), seed 003 0892821 ("no holder outlives a lease the runtime can no
  // longer maintain"), seed 000 §157–§160 (a holder cannot assume its lease remains valid). The
  // handler trusts its refresh loop: it stops only when a renewal comes back refused. A renewal
  // call that hangs (held in the network, cut off by a partition) reports nothing, so the handler
  // keeps working after its lease has expired and may have passed to the next holder.
  'handler-outlives-stalled-refresh': {
    bug: 'a holder\'s handler stops only on a refused renewal, so a renewal call that hangs lets it work past its lease',
    source: '002 "Why staged" 2; 003 commit 0892821; 000 §157–§160',
    rows: ['000-315-failover-no-stale-continuation', '000-317-inv-ha-reconciles'],
    rule: 'work-within-lease: a handler works only within its lease\'s local validity window, whatever its refresh call is waiting for',
    invariants: ['work-within-lease'],
    scenarios: ['stalled-refresh'],
    flips: 'boundWorkByLease',
  },
  // Seed 000 §64–§65 ("Unknown Provider Timeout: Inspect first"; "Blind Retry: Forbidden for
  // non-idempotent operations"), §191–§194, §285 unknown outcome test. After a provider timeout a
  // generic retry layer in the controller re-issues the effect at once, without asking the provider
  // what happened (§194 "No Generic Retry Middleware For Mutations").
  'blind-retry-after-timeout': {
    bug: 'after a provider timeout the effect is re-issued without inspecting the provider first',
    source: '000 §64–§65, §191–§194, §285',
    rows: ['000-316-provider-unknown-reconciliation', '000-315-expiry-not-effect-absence', '000-315-ambiguous-effects-reconcile', '000-315-no-blind-retry', '000-317-inv-expiry-not-effect-stopped', '000-317-inv-reconciliation-follows-ambiguity', '000-317-inv-no-generic-retry'],
    rule: 'no-blind-retry: an effect with an unknown outcome is inspected before it is re-issued',
    invariants: ['no-blind-retry'],
    scenarios: ['provider-timeout-unknown', 'standard-mix'],
    flips: 'retryMiddleware',
  },
  // Seed 000 §52–§53 ("Unknown Must Not Be Converted to New Intent Automatically"), §285, §315
  // ("Unknown idempotency outcome does not create a new operation automatically"). The controller
  // reads an unknown outcome as a failure and starts the work over as a new operation.
  'unknown-treated-as-failure': {
    bug: 'an unknown outcome is taken as a failure and the work restarts as a new operation',
    source: '000 §52–§53, §285',
    rows: ['000-316-provider-unknown-reconciliation', '000-315-ambiguous-effects-reconcile', '000-315-unknown-not-new-operation', '000-317-inv-reconciliation-follows-ambiguity', '000-317-inv-unknown-first-class'],
    rule: 'no-blind-retry: an unknown outcome is never turned into a new attempt without inspection',
    invariants: ['no-blind-retry'],
    scenarios: ['provider-timeout-unknown', 'idempotency-different-request', 'standard-mix'],
    flips: 'unknownIsFailure',
  },
  // Seed 000 §115–§117 (cancel sequence: "reconcile in-flight effect" comes before "release lease";
  // "Otherwise new owner may collide with old external operation"), §288 provider timeout test
  // ("Lease not blindly released before observation"), §289.
  'release-before-reconcile': {
    bug: 'the lease is released while an effect is still in flight or unknown, before reconciliation',
    source: '000 §115–§117, §288–§289',
    rows: ['000-316-chaos-stress'],
    rule: 'release-after-reconcile: no lease is released while an effect under it is in flight or unknown',
    invariants: ['release-after-reconcile'],
    scenarios: ['cancel-keeps-lease', 'provider-timeout-unknown', 'standard-mix'],
    flips: 'releaseBeforeReconcile',
  },
  // Seed 000 §115–§117 (cancel sequence: "stop new side effects" comes first). The run checks its
  // cancellation before the work starts but not again before the effect: a run superseded while it
  // worked sends its external effect anyway.
  'cancelled-run-effects': {
    bug: 'a run cancelled while it worked still sends its external effect: the cancellation is not checked before the effect',
    source: '000 §115–§117, §119–§121',
    rows: ['000-315-concurrency-groups-explicit', '000-317-inv-groups-explicit'],
    rule: 'concurrency-group: a cancelled run starts no new external effect after its cancellation was requested',
    invariants: ['concurrency-group'],
    scenarios: ['cancel-previous-non-supersedable', 'cancel-keeps-lease'],
    flips: 'stopCancelledRuns',
  },
  // Seed 000 §119–§121 ("CancelPrevious: Safe only for operations declared supersedable";
  // production deploy, release publish and DB migration are not), §17, §315. CancelPrevious cancels
  // whatever runs in the group, protected operations included.
  'cancel-non-supersedable': {
    bug: 'CancelPrevious cancels a running operation that is not supersedable',
    source: '000 §17, §119–§121',
    rows: ['000-315-non-supersedable-protected', '000-317-inv-supersession-policy-bound', '000-317-inv-non-supersedable-protected'],
    rule: 'release-after-reconcile: CancelPrevious never cancels a non-supersedable run',
    invariants: ['release-after-reconcile'],
    scenarios: ['cancel-previous-non-supersedable', 'standard-mix'],
    flips: 'cancelNonSupersedable',
  },
  // Seed 001 §296–§305 ("No Boolean is_leader"; "High-risk coordinator methods require RoleGuard"),
  // §90 process-level split brain, §262 stale leader test. The scheduler checks "am I leader?" and
  // then creates leases with no guard, so the store has no epoch to check: a deposed leader that
  // still believes it leads keeps creating authoritative leases.
  'boolean-leader-flag': {
    bug: 'the scheduler acts on a boolean leader flag and sends no role guard, so a deposed leader’s leases are not fenced',
    source: '001 §90, §262, §296–§305',
    rows: ['001-339-three-node-failover', '001-339-scheduler-epoch-fencing', '001-339-chaos', '001-338-leadership-loss-invalidates-guard', '001-338-no-in-memory-leader-state', '001-338-typed-role-guard', '001-338-no-split-authority', '001-340-inv-typed-role-guard', '001-340-inv-old-guards-fenced'],
    rule: 'fenced-stale-leader: no lease is created under an older role epoch than the store has seen',
    invariants: ['fenced-stale-leader'],
    scenarios: ['stale-leader-epoch', 'scheduler-epoch', 'minority-partition'],
    flips: 'roleGuard',
  },
  // Seed 000 §160 ("Holder cannot assume lease remains valid"), §157–§158 (no new protected side
  // effect without ownership), §25–§30 (a lock alone is not enough). The worker checks nothing
  // between its write and the external effect: after a pause, or a write whose reply sat in the
  // network, it calls the provider on a lease that already expired and may have a new owner.
  'effect-without-lease-confirmation': {
    bug: 'a holder calls the external provider without confirming its lease first, so an expired lease still drives a side effect',
    source: '000 §157–§160, §25–§30',
    rows: ['000-316-stale-owner-mutation'],
    rule: 'one-owner-per-epoch: no effect under a token lower than one already accepted (confirm the lease before the effect)',
    invariants: ['one-owner-per-epoch', 'lease-exclusive'],
    scenarios: ['standalone-coordination', 'paused-holder-expiry', 'standard-mix'],
    flips: 'checkLeaseBeforeEffect',
  },
  // Seed 001 §64–§65 (remove a voter: drain, remove, stop), §215 (node revocation removes
  // membership), §244 (the reconciler checks "role owner node removed"), §338 ("Removed node cannot
  // keep coordination authority"). The leader commits its own node's removal and carries on: it
  // keeps its role guard and keeps scheduling under it.
  'removed-leader-keeps-role': {
    bug: 'a leader whose node was removed from the cluster keeps its role and keeps creating leases under its guard',
    source: '001 §64–§65, §215, §244, §338',
    rows: ['001-339-membership-lifecycle', '001-338-removed-node-no-authority', '001-340-inv-membership-authoritative'],
    rule: 'removed-node-no-authority: a removed node leads no term and creates no guarded lease',
    invariants: ['removed-node-no-authority'],
    scenarios: ['membership-change'],
    flips: 'stepDownOnRemoval',
  },
  // Seed 000 §10–§17 (workflow concurrency groups: Queue runs one at a time in order, RejectNew
  // refuses a run while one is active), §118–§122, §305. The group service treats every mode as
  // AllowParallel: a second deploy of a Queue or RejectNew group starts while the first is still
  // running.
  'group-modes-collapsed': {
    bug: 'concurrency groups in Queue and RejectNew mode start every run at once, as AllowParallel',
    source: '000 §10–§17, §118–§122, §305',
    rows: ['000-315-concurrency-groups-explicit', '000-317-inv-groups-explicit'],
    rule: 'concurrency-group: Queue, RejectNew and CancelPrevious groups run one run at a time',
    invariants: ['concurrency-group'],
    scenarios: ['cancel-previous-non-supersedable', 'standard-mix'],
    flips: 'enforceGroupModes',
  },
  // Seed 003 ("A delivery delayed in its prelude (validation, dedupe, routing) could register after
  // — and displace — a waiter admitted later ... Deliveries now carry a dispatch admission
  // sequence; registerPending rejects registrations older than the current waiter"), seed
  // 000 §10–§17, §119–§121. The CancelPrevious group orders runs by when they reach it: a run whose
  // controller was busy or paused arrives late and cancels the newer run.
  'arrival-order-supersedes': {
    bug: 'CancelPrevious lets the run that arrives last win, so an old run delayed on its way supersedes a newer one',
    source: '003 admission-order (delayed registration displaces a newer waiter); 000 §10–§17, §119–§121',
    rows: ['000-315-non-supersedable-protected', '000-317-inv-supersession-policy-bound', '000-317-inv-non-supersedable-protected'],
    rule: 'concurrency-group: in CancelPrevious the newest admission wins; no run supersedes one admitted after it',
    invariants: ['concurrency-group'],
    scenarios: ['cancel-previous-non-supersedable'],
    flips: 'supersedeByAdmission',
  },
  // Seed 000 §272–§276 (restore: reconcile before reopening), §237, §64–§65 (unknown provider
  // outcome: inspect first), §297. After a failover or restore the recovery procedure reopens the
  // blocked scopes at once, without inspecting the effects that were in flight when the database
  // was replaced.
  'reopen-without-inspection': {
    bug: 'after failover or restore, blocked scopes are reopened without inspecting their in-flight effects',
    source: '000 §64–§65, §237, §272–§276, §297',
    rows: ['000-315-reconcile-before-reopen', '000-317-inv-reconcile-after-dr'],
    rule: 'release-after-reconcile: a blocked scope is reopened (ReconcileScope) only after its in-flight effects are observed',
    invariants: ['release-after-reconcile'],
    scenarios: ['restore', 'db-failover'],
    flips: 'inspectBeforeReopen',
  },
  // Seed 003 ("lock waits: re-check pending ownership after AcquireLock returns held ... when the
  // waiter was displaced mid-acquire"), seed 000 §86–§90, §157–§160. A waiter that is told it got
  // the lease takes that answer as proof of current ownership: it does not re-check, so a grant
  // whose reply sat out a pause or a slow network drives its first side effect after the lease
  // already expired.
  'no-recheck-after-wait': {
    bug: 'a waiter that got the lease trusts the grant as a fresh confirmation instead of re-checking ownership',
    source: '003 displaced-waiter; 000 §86–§90, §157–§160',
    rows: ['000-315-one-owner-per-scope'],
    rule: 'lease-exclusive: a holder starts no side effect under a lease that has expired (re-check after the wait)',
    invariants: ['lease-exclusive', 'one-owner-per-epoch'],
    scenarios: ['displaced-waiter-recheck'],
    flips: 'recheckAfterWait',
  },
  // Seed 002 (PR #53 "key-only ForceReleaseLock cannot bind the force to the lease observed at
  // conflict time"), seed 003 (preempt: re-validate before force release), seed 000 §200–§204,
  // §290. The operator investigates the stuck holder's lease, then re-reads the scope and
  // force-releases whatever lease is current by then — a newer, healthy holder's.
  'force-release-reread-token': {
    bug: 'the operator force-releases the token it re-reads after investigating, not the one it observed and reconciled',
    source: '002 PR #53; 003 preempt re-validation; 000 §200–§204, §290',
    rows: ['000-316-force-release-audited'],
    rule: 'force-release-judged: no lease granted or renewed within ⅔ of its TTL is forced (§202 only after reconciliation/manual proof)',
    invariants: ['force-release-judged'],
    scenarios: ['force-release-stalled-holders', 'force-release-observed-epoch'],
    flips: 'forceReleaseWithObservedEpoch',
  },
  // Seed 002 (022d1f8 "gate ForceReleaseLock's delete by the observed revision"; ebe1ab8
  // "pending-slot validation and local cancellation are now one atomic operation"; "Why staged"
  // item 1, "remote force validation must be atomic"), seed 000 §200–§204. The operator validates
  // that the lease is still the stalled one it watched, then forces it by token alone in a second
  // step: a holder that comes back and renews in between loses a live lease.
  'force-without-observed-expiry': {
    bug: 'the force release is bound to the token only, so its validation and the force are two steps and a renewal between them is ignored',
    source: '002 022d1f8, ebe1ab8 (remote force validation atomic); 000 §200–§204, §290',
    rows: ['000-316-force-release-audited', '000-315-force-release-exact', '000-317-inv-force-release-audited'],
    rule: 'force-release-judged: a force removes no lease renewed within two renewal intervals before it',
    invariants: ['force-release-judged'],
    scenarios: ['force-release-stalled-holders'],
    flips: 'forceBindsObservedExpiry',
  },
  // Seed 002 (b1a49c3 "a preemptor arriving while the owner is still routing or deduping can never
  // mistake the fresh local lease for a remote one and force-release it"; 544eda0 "a lease can
  // never exist locally without a visible reservation"), seed 000 §202. The operator takes a lease
  // whose expiry did not move for half a renewal interval for an orphan: a fresh or healthy lease,
  // between two of its holder's renewals, is forced.
  'orphan-judged-too-soon': {
    bug: 'a holder is judged stalled when its lease did not move for half a renewal interval, so fresh and healthy leases are forced',
    source: '002 b1a49c3, 544eda0 (fresh lease mistaken for an orphan); 000 §202',
    rows: ['000-316-force-release-audited'],
    rule: 'force-release-judged: a force removes no lease granted or renewed within two renewal intervals before it',
    invariants: ['force-release-judged'],
    scenarios: ['force-release-stalled-holders'],
    flips: 'judgeStallOverRenewals',
  },
  // Seed 000 §26–§28 ("Fencing token passed to the resource"; the provider checks an expected token
  // where it supports one), §281. The controller never sends its token to the provider: an effect
  // request that sat in the network past its lease's expiry is applied after the next owner's
  // effect. Seed 002 ("Why staged" item 3): a holder the new owner cannot stop in time (on another
  // instance, or a request already on its way) is stopped only by fencing.
  'no-provider-fencing': {
    bug: 'effects are sent without the fencing token, so the provider cannot refuse a stale holder’s late request',
    source: '000 §26–§28, §281; 002 "Why staged" item 3 (holders on other instances need fencing)',
    rows: ['000-316-stale-owner-mutation'],
    rule: 'one-owner-per-epoch: no protected write or effect under a token lower than one already accepted',
    invariants: ['one-owner-per-epoch', 'no-blind-retry'],
    scenarios: ['provider-fencing'],
    flips: 'sendFencingToken',
  },
  // Seed 000 §242–§250 (tenant-qualified scopes, "never derive a scope from a free-form name"),
  // §295 tenant isolation test; seed 003 ("length-prefix channel key fields so the mapping is
  // injective across adapter/tenant/channel combinations"). The planner derives a scope id from
  // kind, project and name only: two tenants' environments of the same name are one scope.
  'tenant-dropped-from-scope': {
    bug: 'scope ids are derived without the tenant, so two tenants’ scopes of the same name collide',
    source: '000 §242–§250, §295; 003 injective lock scope keys',
    rows: ['000-315-typed-scope-identity', '000-317-inv-scopes-typed'],
    rule: 'tenant-isolation: a scope id belongs to one tenant’s reference only',
    invariants: ['tenant-isolation'],
    scenarios: ['tenant-isolation'],
    flips: 'scopeIdsCarryTenant',
  },
  // Seed 000 §64–§65 ("Unknown Provider Timeout: Inspect first"), §191–§193 (retry safety:
  // InspectBeforeRetry), §287 controller crash test. A new incarnation that finds an effect in
  // flight in its predecessor's journal retries it without asking the provider whether the first
  // attempt was applied.
  'retry-without-inspection': {
    bug: 'after a crash the next incarnation retries an in-flight effect without inspecting the provider first',
    source: '000 §64–§65, §191–§193, §287',
    rows: ['000-315-ambiguous-effects-reconcile', '000-317-inv-reconciliation-follows-ambiguity'],
    rule: 'no-blind-retry: an effect with an unknown outcome is inspected before it is re-issued',
    invariants: ['no-blind-retry'],
    scenarios: ['controller-crash-reconcile', 'lease-expiry-new-epoch', 'standard-mix'],
    flips: 'inspectBeforeRetry',
  },
  // Seed 000 §99–§105 ("Lock Ordering: Primary safety"), §108–§109, §291 deadlock test. Several
  // resources are acquired one by one in the order the request lists them, each held while waiting
  // for the next: two requests listing the same scopes in opposite orders each hold one and wait
  // for the other.
  'nested-acquire-order': {
    bug: 'multi-resource requests take their scopes one by one in request order instead of all at once in canonical order',
    source: '000 §99–§105, §108–§109, §291',
    rows: ['000-316-deadlock-prevention', '000-315-multi-resource-composite', '000-315-deadlock-avoidance-designed', '000-317-inv-no-arbitrary-nesting', '000-317-inv-deadlock-deterministic'],
    rule: 'liveness: every waiter completes within the bound once faults heal (no deadlock)',
    invariants: ['liveness'],
    scenarios: ['deadlock-order'],
    flips: 'canonicalOrder',
  },
  // Seed 003 ("Snapshot the cancellation cause before draining the refresh loop, so a lease-loss
  // result that lands only after the handler already returned cannot reclassify the completed run
  // as preempted or suppress a real handler error"; the outcome telemetry that records
  // OutcomePreempted by cancellation cause), seed 000 §157–§159, §224–§225. When the handler
  // returns, the runtime stops the refresh loop, waits for its renewal in flight to land, and only
  // then reads the cancellation cause: a renewal refused after the return (the lease ran out, or
  // the run's own release overtook it) turns a completed run into a preempted one and hides a
  // handler's error behind the same preemption.
  'cause-read-after-drain': {
    bug: 'the cancellation cause is read after the refresh loop drained, so a lease loss that lands after the handler returned reclassifies the run as preempted',
    source: '003 cause-reclassified-after-return; 000 §157–§159, §224–§225',
    rows: ['000-315-failover-no-stale-continuation', '000-317-inv-ha-reconciles'],
    rule: 'outcome-at-return: a run whose handler returned before its lease loss was observed is classified by its own result (completed or error), never preempted',
    invariants: ['outcome-at-return'],
    scenarios: ['lease-loss-after-return', 'renewal-race'],
    flips: 'snapshotCauseAtReturn',
  },
});
