// What each store mutant breaks and what must catch it (docs/ARCHITECTURE.md "Mutants"), one entry
// a mutant in the order of the mutation report: the one bug, the real failure it comes from, the
// rule of model/SEMANTICS.md (or a checker) it breaks, the invariants that must catch it and the
// scenarios to try. How it breaks the rule is its own file beside this one, named after it, which
// declares it with modelMutant (model-store.ts) or declaredMutant and tells the bug in prose.

import type { StoreDeclaration, StoreMutant } from '../entry.ts';
import { REACH_MUTANTS } from './declarations-reach.ts';
import { RECORD_MUTANTS } from './declarations-records.ts';

const STORE_MUTANTS = {
  'no-fencing-check': {
    bug: 'Mutate ignores the fencing token and holder: any write with the current aggregate version is accepted',
    source: '000 §25–§30, §281',
    rows: ['000-316-stale-owner-mutation', '000-315-stale-holder-rejected', '000-317-inv-stale-owners-cannot-mutate'],
    rule: 'Protected mutation: no live lease with that token and holder → StaleFence',
    invariants: ['one-owner-per-epoch', 'lease-exclusive'],
    scenarios: ['stale-holder', 'paused-holder-expiry', 'split-brain-partition', 'standard-mix'],
  },
  'client-clock-expiry': {
    bug: 'expiry is stamped and judged by the calling controller’s clock instead of store time',
    source: '000 §79–§82',
    rows: ['000-316-stale-owner-mutation', '000-316-chaos-stress', '000-315-one-owner-per-scope'],
    rule: 'Leases: a lease is live iff now < expiresAt, now being store time (never a client clock)',
    invariants: ['lease-exclusive'],
    scenarios: ['clock-skew', 'swarm-mix', 'standard-mix'],
  },
  'renewal-without-epoch-check': {
    bug: 'Renew matches on scope only: it re-takes a lease that expired or that another holder owns, keeping the caller’s old token',
    source: '000 §33–§34, §160, §282',
    rows: ['000-316-stale-owner-mutation', '000-315-stale-holder-rejected', '000-317-inv-stale-owners-cannot-mutate'],
    rule: 'Leases: Renew (live lease with that token and holder → Renewed; else Expired or Stale)',
    invariants: ['lease-exclusive', 'one-owner-per-epoch'],
    scenarios: ['renewal-race', 'paused-holder-expiry', 'stale-holder', 'standard-mix'],
  },
  'advisory-lock-only': {
    bug: 'no durable per-scope token counter: every owner of a free scope gets token 1, as with a session advisory lock',
    source: '000 §24, §72–§74, §280',
    rows: ['000-316-stale-owner-mutation', '000-316-chaos-stress', '000-315-one-owner-per-scope', '000-315-no-process-local-mutex', '001-338-release-promotion-fenced', '000-317-inv-no-process-mutex'],
    rule: 'Fencing tokens: issuing sets lastToken := max(lastToken, recoveryEpoch × stride) + 1; nothing lowers it',
    invariants: ['one-owner-per-epoch', 'fencing-monotonic'],
    scenarios: ['stale-holder', 'paused-holder-expiry', 'standard-mix', 'release-coordinator-epoch'],
  },
  'key-only-force-release': {
    bug: 'ForceRelease ignores expectedToken and expectedExpiresAt and deletes the scope’s current lease, even a newer holder’s',
    source: '002 PR #53 (key-only ForceReleaseLock); 000 §200–§204, §290',
    rows: ['000-316-force-release-audited', '000-315-force-release-exact', '000-317-inv-force-release-audited'],
    rule: 'Leases: ForceRelease (live lease with exactly expectedToken; a key-only release does not exist)',
    invariants: ['force-release-audited', 'force-release-judged'],
    scenarios: ['force-release-stalled-holders'],
  },
  'epoch-reset-after-restore': {
    bug: 'AdvanceRecoveryEpoch does not raise the token floor: after a restore or failover, tokens restart from the older image',
    source: '000 §271–§276, §297',
    rows: ['000-316-fencing-monotonic', '000-316-dr-invalidates-leases', '000-316-chaos-stress', '001-339-dr-procedure', '000-315-higher-fencing-token', '000-315-restore-invalidates-leases', '000-317-inv-transfer-increments-token', '000-317-inv-restore-invalidates', '001-340-inv-dr-no-invented-cluster'],
    rule: 'Recovery: AdvanceRecoveryEpoch (recoveryEpoch := max(recoveryEpoch + 1, atLeast), lifting every later token)',
    invariants: ['one-owner-per-epoch', 'fencing-monotonic', 'restore-invalidates'],
    scenarios: ['restore', 'db-failover'],
  },
  'semaphore-off-by-one': {
    bug: 'the capacity check admits one unit more than the capacity (permits and reservations)',
    source: '000 §93–§96, §207, §293',
    rows: ['000-315-reservations-within-capacity', '000-317-inv-capacity-enforced'],
    rule: 'Semaphores and reservations: in use + units > capacity → Busy / Overbooked',
    invariants: ['capacity'],
    scenarios: ['semaphore-capacity', 'standard-mix'],
  },
  'capacity-checks-full-only': {
    bug: 'the capacity check refuses only a pool that is already full, not a request that does not fit (permits and reservations)',
    source: '000 §93–§96, §207, §293',
    rows: ['000-315-reservations-within-capacity', '000-317-inv-capacity-enforced'],
    rule: 'Semaphores and reservations: in use + units > capacity → Busy / Overbooked',
    invariants: ['capacity'],
    scenarios: ['semaphore-capacity'],
  },
  'lease-without-scheduler-epoch': {
    bug: 'Acquire ignores the role guard: a lease is created under a scheduler epoch older than the store has seen',
    source: '001 §27–§28, §93, §263',
    rows: ['001-339-scheduler-epoch-fencing', '001-339-chaos', '001-338-old-leader-fenced', '001-338-scheduler-carries-epoch', '000-317-inv-epochs-not-leases', '001-340-inv-epochs-fence', '001-340-inv-scheduler-lease-db'],
    rule: 'Leases: Acquire step 1 (guard.epoch < stored → Fenced, else stored := guard.epoch)',
    invariants: ['fenced-stale-leader'],
    scenarios: ['scheduler-epoch', 'stale-leader-epoch', 'minority-partition'],
  },
  'reentrant-acquire': {
    bug: 'Acquire by the holder of the live lease grants a second lease (a new token) instead of Busy',
    source: '000 §21–§24, §279',
    rows: ['000-315-one-owner-per-scope'],
    rule: 'Leases: Acquire step 4 (live lease → Busy, also for the same holder)',
    invariants: ['lease-exclusive'],
    scenarios: ['three-node-failover', 'scheduler-epoch', 'stale-leader-epoch'],
  },
  'acquire-bypasses-queue': {
    bug: 'an Acquire without a waiter id takes a free scope while waiters are queued for it',
    source: '000 §86–§90, §294',
    rows: ['000-315-contention-observable', '000-317-inv-contention-observable'],
    rule: 'Leases: Acquire step 5 (queue not empty and no waiterId → Rejected not-head-of-queue)',
    invariants: ['liveness'],
    scenarios: ['fairness-starvation'],
  },
  'any-waiter-acquires': {
    bug: 'any queued waiter that asks takes a free scope, not only the head of the queue',
    source: '000 §86–§92, §294',
    rows: ['000-315-contention-observable', '000-317-inv-contention-observable'],
    rule: 'Leases: Acquire step 5 (a queued waiter that is not the head → Rejected not-head-of-queue)',
    invariants: ['liveness'],
    scenarios: ['fairness-starvation'],
  },
  'fifo-ignores-priority': {
    bug: 'the head of a queue is the oldest waiter; explicit priority (and so aging) is ignored',
    source: '000 §90–§92, §294',
    rows: ['000-315-contention-observable', '000-317-inv-contention-observable'],
    rule: 'Leases: head of a queue (greatest effective priority, then smaller seq)',
    invariants: ['liveness'],
    scenarios: ['fairness-starvation'],
  },
  'priority-without-aging': {
    bug: 'the head of a queue is chosen by explicit priority alone: waiting time never ages a waiter',
    source: '000 §91–§92, §294',
    rows: ['000-315-contention-observable', '000-317-inv-contention-observable'],
    rule: 'Leases: effective priority = priority + floor((now − enqueuedAt) / AGING_STEP_MS)',
    invariants: ['liveness'],
    scenarios: ['fairness-starvation'],
  },
  'release-ignores-token': {
    bug: 'Release ends the scope’s live lease whatever token and holder the caller presents',
    source: '000 §33–§36, §114; 002 key-only release',
    rows: ['000-315-failover-no-stale-continuation', '000-317-inv-ha-reconciles'],
    rule: 'Leases: Release (live lease with that token and holder → Released, else Stale)',
    invariants: ['lease-exclusive'],
    scenarios: ['stalled-refresh', 'paused-holder-expiry', 'stale-holder', 'standalone-coordination', 'standard-mix'],
  },
  'handoff-keeps-token': {
    bug: 'Handoff gives the new holder the old holder’s token instead of issuing a new one',
    source: '000 §24, §110–§114',
    rows: ['000-315-higher-fencing-token', '000-317-inv-transfer-increments-token'],
    rule: 'Leases: Handoff (a new token is issued for newHolder)',
    invariants: ['one-owner-per-epoch', 'fencing-monotonic'],
    scenarios: ['lease-handoff', 'standard-mix'],
  },
  'force-release-lowers-token': {
    bug: 'ForceRelease lowers the scope’s token counter below the removed token, so the next owner reuses it',
    source: '000 §24, §203–§204, §290',
    rows: ['000-315-higher-fencing-token', '000-317-inv-transfer-increments-token'],
    rule: 'Fencing tokens: nothing ever lowers lastToken (not force release); ForceRelease burns one token',
    invariants: ['fencing-monotonic', 'one-owner-per-epoch'],
    scenarios: ['force-release-observed-epoch'],
  },
  'force-release-no-burn': {
    bug: 'ForceRelease removes the lease without burning a token: the counter stays, nextToken is the removed token plus one',
    source: '000 §203–§204, §290',
    rows: ['000-316-force-release-audited'],
    rule: 'ForceRelease burns one token: nextToken is at least the removed token plus two',
    invariants: ['force-release-audited'],
    scenarios: ['force-release-observed-epoch', 'force-release-stalled-holders'],
  },
  'mutate-ignores-expiry': {
    bug: 'Mutate accepts the token and holder of the scope’s lease row even after that lease expired',
    source: '000 §25–§31, §66–§70, §281',
    rows: ['000-315-stale-holder-rejected', '000-317-inv-stale-owners-cannot-mutate'],
    rule: 'Protected mutation: no live lease (now < expiresAt) with that token and holder → StaleFence',
    invariants: ['lease-exclusive'],
    scenarios: ['paused-holder-expiry', 'stale-holder', 'renewal-failure-stops-holder'],
  },
  'mutate-ignores-version': {
    bug: 'Mutate checks the lease but not the expected version: it writes the next version over a change the caller never saw',
    source: '000 §66–§70',
    rows: ['000-315-aggregate-version-separate', '000-317-inv-aggregate-version-separate'],
    rule: 'Protected mutation: aggregate version differs from expectedVersion → StaleVersion; else the version becomes expectedVersion + 1',
    invariants: ['no-lost-update'],
    scenarios: ['provider-fencing', 'stalled-refresh'],
  },
  'renew-revives-expired': {
    bug: 'Renew of an expired row with the caller’s token and holder answers Renewed and revives it',
    source: '000 §31–§35, §160, §282',
    rows: ['000-316-stale-owner-mutation'],
    rule: 'Leases: Renew (row with that token and holder but expired → Expired)',
    invariants: ['lease-exclusive'],
    scenarios: ['paused-holder-expiry', 'renewal-race', 'renewal-failure-stops-holder'],
  },
  'fence-by-aggregate-high-water': {
    bug: 'Mutate fences against the highest token the aggregate accepted instead of the live lease',
    source: '000 §25–§30, §66–§70, §281',
    rows: ['000-315-aggregate-version-separate', '000-317-inv-aggregate-version-separate'],
    rule: 'Protected mutation: no live lease with that token and holder → StaleFence',
    invariants: ['one-owner-per-epoch', 'lease-exclusive'],
    scenarios: ['paused-holder-expiry', 'stale-holder', 'split-brain-partition', 'standard-mix'],
  },
  'mutate-without-role-guard': {
    bug: 'Mutate ignores the role guard: a promotion under a coordinator epoch older than the stored one is accepted',
    source: '001 §34–§35, §78–§79, §94, §264–§265',
    rows: ['001-338-release-promotion-fenced'],
    rule: 'Protected mutation: guard as in Acquire step 1 (guard.epoch < stored → Fenced)',
    invariants: ['no-split-promotion', 'fenced-stale-leader'],
    scenarios: ['release-coordinator-epoch', 'deployment-coordinator-epoch'],
  },
  'recovery-keeps-leases': {
    bug: 'AdvanceRecoveryEpoch keeps the live leases of the restored image instead of invalidating them',
    source: '000 §272–§276, §297',
    rows: ['000-315-restore-invalidates-leases', '000-317-inv-restore-invalidates'],
    rule: 'Recovery: AdvanceRecoveryEpoch (every live lease gets a tombstone restored and is removed)',
    invariants: ['restore-invalidates'],
    scenarios: ['restore', 'db-failover'],
  },
  'recovery-skips-block': {
    bug: 'AdvanceRecoveryEpoch ignores blockScopes: protected scopes are open again before reconciliation',
    source: '000 §237, §272–§276, §297',
    rows: ['000-315-reconcile-before-reopen', '000-317-inv-reconcile-after-dr'],
    rule: 'Recovery: AdvanceRecoveryEpoch (every scope in blockScopes becomes BlockedForReconciliation)',
    invariants: ['restore-invalidates'],
    scenarios: ['restore', 'db-failover'],
  },
  // Capacity, idempotency, multi-resource, jobs, authority and ownership records: a table of their own.
  ...RECORD_MUTANTS,
  // The store mutants that show the reach of the check and of the history checkers: each in its own table.
  ...REACH_MUTANTS,
} as const satisfies Readonly<Record<string, StoreDeclaration>>;

/** The name of a declared store mutant. */
export type StoreMutantName = keyof typeof STORE_MUTANTS;

/** The store mutant names, in report order. */
export const STORE_MUTANT_NAMES = Object.keys(STORE_MUTANTS) as ReadonlyArray<StoreMutantName>;

/** What the store mutant `name` declares, as its StoreMutant carries it beside how it `wraps` the store. */
export function declaredMutant(name: StoreMutantName): Omit<StoreMutant, 'wraps'> {
  return { name, ...STORE_MUTANTS[name] };
}
