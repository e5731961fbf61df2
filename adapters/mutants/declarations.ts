// What each store mutant breaks and what must catch it (docs/ARCHITECTURE.md "Mutants"), one entry
// a mutant in the order of the mutation report: the one bug, the real failure it comes from, the
// rule of model/SEMANTICS.md (or a checker) it breaks, the invariants that must catch it and the
// scenarios to try. How it breaks the rule is its own file beside this one, named after it, which
// declares it with modelMutant (model-store.ts) or declaredMutant and tells the bug in prose.

import type { MutantDeclaration } from '../../model/policy-mutants/policy-mutant.ts';
import { REACH_MUTANTS } from './declarations-reach.ts';

const STORE_MUTANTS = {
  'no-fencing-check': {
    bug: 'Mutate ignores the fencing token and holder: any write with the current aggregate version is accepted',
    source: '000 §25–§30, §281',
    rule: 'Protected mutation: no live lease with that token and holder → StaleFence',
    invariants: ['one-owner-per-epoch', 'lease-exclusive'],
    scenarios: ['stale-holder', 'paused-holder-expiry', 'split-brain-partition', 'standard-mix'],
  },
  'client-clock-expiry': {
    bug: 'expiry is stamped and judged by the calling controller’s clock instead of store time',
    source: '000 §79–§82',
    rule: 'Leases: a lease is live iff now < expiresAt, now being store time (never a client clock)',
    invariants: ['lease-exclusive'],
    scenarios: ['clock-skew', 'swarm-mix', 'standard-mix'],
  },
  'renewal-without-epoch-check': {
    bug: 'Renew matches on scope only: it re-takes a lease that expired or that another holder owns, keeping the caller’s old token',
    source: '000 §33–§34, §160, §282',
    rule: 'Leases: Renew (live lease with that token and holder → Renewed; else Expired or Stale)',
    invariants: ['lease-exclusive', 'one-owner-per-epoch'],
    scenarios: ['renewal-race', 'paused-holder-expiry', 'stale-holder', 'standard-mix'],
  },
  'advisory-lock-only': {
    bug: 'no durable per-scope token counter: every owner of a free scope gets token 1, as with a session advisory lock',
    source: '000 §24, §72–§74, §280',
    rule: 'Fencing tokens: issuing sets lastToken := max(lastToken, recoveryEpoch × stride) + 1; nothing lowers it',
    invariants: ['one-owner-per-epoch', 'fencing-monotonic'],
    scenarios: ['stale-holder', 'paused-holder-expiry', 'standard-mix', 'release-coordinator-epoch'],
  },
  'key-only-force-release': {
    bug: 'ForceRelease ignores expectedToken and expectedExpiresAt and deletes the scope’s current lease, even a newer holder’s',
    source: '002 PR #53 (key-only ForceReleaseLock); 000 §200–§204, §290',
    rule: 'Leases: ForceRelease (live lease with exactly expectedToken; a key-only release does not exist)',
    invariants: ['force-release-audited', 'force-release-judged'],
    scenarios: ['force-release-stalled-holders'],
  },
  'epoch-reset-after-restore': {
    bug: 'AdvanceRecoveryEpoch does not raise the token floor: after a restore or failover, tokens restart from the older image',
    source: '000 §271–§276, §297',
    rule: 'Recovery: AdvanceRecoveryEpoch (recoveryEpoch := max(recoveryEpoch + 1, atLeast), lifting every later token)',
    invariants: ['one-owner-per-epoch', 'fencing-monotonic', 'restore-invalidates'],
    scenarios: ['restore', 'db-failover'],
  },
  'semaphore-off-by-one': {
    bug: 'the capacity check admits one unit more than the capacity (permits and reservations)',
    source: '000 §93–§96, §207, §293',
    rule: 'Semaphores and reservations: in use + units > capacity → Busy / Overbooked',
    invariants: ['capacity'],
    scenarios: ['semaphore-capacity', 'standard-mix'],
  },
  'capacity-checks-full-only': {
    bug: 'the capacity check refuses only a pool that is already full, not a request that does not fit (permits and reservations)',
    source: '000 §93–§96, §207, §293',
    rule: 'Semaphores and reservations: in use + units > capacity → Busy / Overbooked',
    invariants: ['capacity'],
    scenarios: ['semaphore-capacity'],
  },
  'lease-without-scheduler-epoch': {
    bug: 'Acquire ignores the role guard: a lease is created under a scheduler epoch older than the store has seen',
    source: '001 §27–§28, §93, §263',
    rule: 'Leases: Acquire step 1 (guard.epoch < stored → Fenced, else stored := guard.epoch)',
    invariants: ['fenced-stale-leader'],
    scenarios: ['scheduler-epoch', 'stale-leader-epoch', 'minority-partition'],
  },
  'reentrant-acquire': {
    bug: 'Acquire by the holder of the live lease grants a second lease (a new token) instead of Busy',
    source: '000 §21–§24, §279',
    rule: 'Leases: Acquire step 4 (live lease → Busy, also for the same holder)',
    invariants: ['lease-exclusive'],
    scenarios: ['three-node-failover', 'scheduler-epoch', 'stale-leader-epoch'],
  },
  'acquire-bypasses-queue': {
    bug: 'an Acquire without a waiter id takes a free scope while waiters are queued for it',
    source: '000 §86–§90, §294',
    rule: 'Leases: Acquire step 5 (queue not empty and no waiterId → Rejected not-head-of-queue)',
    invariants: ['liveness'],
    scenarios: ['fairness-starvation'],
  },
  'any-waiter-acquires': {
    bug: 'any queued waiter that asks takes a free scope, not only the head of the queue',
    source: '000 §86–§92, §294',
    rule: 'Leases: Acquire step 5 (a queued waiter that is not the head → Rejected not-head-of-queue)',
    invariants: ['liveness'],
    scenarios: ['fairness-starvation'],
  },
  'fifo-ignores-priority': {
    bug: 'the head of a queue is the oldest waiter; explicit priority (and so aging) is ignored',
    source: '000 §90–§92, §294',
    rule: 'Leases: head of a queue (greatest effective priority, then smaller seq)',
    invariants: ['liveness'],
    scenarios: ['fairness-starvation'],
  },
  'priority-without-aging': {
    bug: 'the head of a queue is chosen by explicit priority alone: waiting time never ages a waiter',
    source: '000 §91–§92, §294',
    rule: 'Leases: effective priority = priority + floor((now − enqueuedAt) / AGING_STEP_MS)',
    invariants: ['liveness'],
    scenarios: ['fairness-starvation'],
  },
  'release-ignores-token': {
    bug: 'Release ends the scope’s live lease whatever token and holder the caller presents',
    source: '000 §33–§36, §114; 002 key-only release',
    rule: 'Leases: Release (live lease with that token and holder → Released, else Stale)',
    invariants: ['lease-exclusive'],
    scenarios: ['stalled-refresh', 'paused-holder-expiry', 'stale-holder', 'standalone-coordination', 'standard-mix'],
  },
  'handoff-keeps-token': {
    bug: 'Handoff gives the new holder the old holder’s token instead of issuing a new one',
    source: '000 §24, §110–§114',
    rule: 'Leases: Handoff (a new token is issued for newHolder)',
    invariants: ['one-owner-per-epoch', 'fencing-monotonic'],
    scenarios: ['lease-handoff', 'standard-mix'],
  },
  'force-release-lowers-token': {
    bug: 'ForceRelease lowers the scope’s token counter below the removed token, so the next owner reuses it',
    source: '000 §24, §203–§204, §290',
    rule: 'Fencing tokens: nothing ever lowers lastToken (not force release); ForceRelease burns one token',
    invariants: ['fencing-monotonic', 'one-owner-per-epoch'],
    scenarios: ['force-release-observed-epoch'],
  },
  'force-release-no-burn': {
    bug: 'ForceRelease removes the lease without burning a token: the counter stays, nextToken is the removed token plus one',
    source: '000 §203–§204, §290',
    rule: 'ForceRelease burns one token: nextToken is at least the removed token plus two',
    invariants: ['force-release-audited'],
    scenarios: ['force-release-observed-epoch', 'force-release-stalled-holders'],
  },
  'mutate-ignores-expiry': {
    bug: 'Mutate accepts the token and holder of the scope’s lease row even after that lease expired',
    source: '000 §25–§31, §66–§70, §281',
    rule: 'Protected mutation: no live lease (now < expiresAt) with that token and holder → StaleFence',
    invariants: ['lease-exclusive'],
    scenarios: ['paused-holder-expiry', 'stale-holder', 'renewal-failure-stops-holder'],
  },
  'mutate-ignores-version': {
    bug: 'Mutate checks the lease but not the expected version: it writes the next version over a change the caller never saw',
    source: '000 §66–§70',
    rule: 'Protected mutation: aggregate version differs from expectedVersion → StaleVersion; else the version becomes expectedVersion + 1',
    invariants: ['no-lost-update'],
    scenarios: ['provider-fencing', 'stalled-refresh'],
  },
  'renew-revives-expired': {
    bug: 'Renew of an expired row with the caller’s token and holder answers Renewed and revives it',
    source: '000 §31–§35, §160, §282',
    rule: 'Leases: Renew (row with that token and holder but expired → Expired)',
    invariants: ['lease-exclusive'],
    scenarios: ['paused-holder-expiry', 'renewal-race', 'renewal-failure-stops-holder'],
  },
  'fence-by-aggregate-high-water': {
    bug: 'Mutate fences against the highest token the aggregate accepted instead of the live lease',
    source: '000 §25–§30, §66–§70, §281',
    rule: 'Protected mutation: no live lease with that token and holder → StaleFence',
    invariants: ['one-owner-per-epoch', 'lease-exclusive'],
    scenarios: ['paused-holder-expiry', 'stale-holder', 'split-brain-partition', 'standard-mix'],
  },
  'mutate-without-role-guard': {
    bug: 'Mutate ignores the role guard: a promotion under a coordinator epoch older than the stored one is accepted',
    source: '001 §34–§35, §78–§79, §94, §264–§265',
    rule: 'Protected mutation: guard as in Acquire step 1 (guard.epoch < stored → Fenced)',
    invariants: ['no-split-promotion', 'fenced-stale-leader'],
    scenarios: ['release-coordinator-epoch', 'deployment-coordinator-epoch'],
  },
  'recovery-keeps-leases': {
    bug: 'AdvanceRecoveryEpoch keeps the live leases of the restored image instead of invalidating them',
    source: '000 §272–§276, §297',
    rule: 'Recovery: AdvanceRecoveryEpoch (every live lease gets a tombstone restored and is removed)',
    invariants: ['restore-invalidates'],
    scenarios: ['restore', 'db-failover'],
  },
  'recovery-skips-block': {
    bug: 'AdvanceRecoveryEpoch ignores blockScopes: protected scopes are open again before reconciliation',
    source: '000 §237, §272–§276, §297',
    rule: 'Recovery: AdvanceRecoveryEpoch (every scope in blockScopes becomes BlockedForReconciliation)',
    invariants: ['restore-invalidates'],
    scenarios: ['restore', 'db-failover'],
  },
  'reservations-not-counted': {
    bug: 'units in use count live permits only: Pending and Active reservations are not counted against the capacity',
    source: '000 §93–§98, §207, §292–§293',
    rule: 'Semaphores and reservations: units in use = live permits + Pending/Active unexpired reservations',
    invariants: ['capacity'],
    scenarios: ['multi-resource-compensation', 'clock-skew', 'standard-mix'],
  },
  'expired-reservation-consumed': {
    bug: 'ConsumeReservation consumes a Pending or Active reservation whose expiry has passed',
    source: '000 §37–§42, §207–§213, §292',
    rule: 'Semaphores and reservations: an expired reservation is never consumed (ReservationExpired)',
    invariants: ['capacity'],
    scenarios: ['renewal-failure-stops-holder', 'multi-resource-compensation', 'clock-skew'],
  },
  'digest-ignored': {
    bug: 'IdempotencyBegin and IdempotencyComplete ignore the request digest: another request reusing a key is not a Conflict',
    source: '000 §46–§47, §284',
    rule: 'Idempotency: IdempotencyBegin (present with another digest → Conflict, whatever the state)',
    invariants: ['digest-conflict'],
    scenarios: ['idempotency-different-request', 'standard-mix'],
  },
  'idempotency-key-unscoped': {
    bug: 'idempotency records are identified by the key alone: a key reused by another tenant, operation or subject finds that other record',
    source: '000 §44–§45, §47',
    rule: 'Idempotency: a record is identified by (tenant, operation, subject, key)',
    invariants: ['idempotency-scope'],
    scenarios: ['idempotency-different-request', 'standard-mix'],
  },
  'unknown-begins-new': {
    bug: 'IdempotencyBegin on a record in state Unknown answers New and restarts it instead of Unknown',
    source: '000 §52–§53, §285, §315',
    rule: 'Idempotency: IdempotencyBegin (same digest, Unknown → Unknown, never a new operation)',
    invariants: ['unknown-not-new'],
    scenarios: ['idempotency-unknown-outcome', 'provider-timeout-unknown'],
  },
  'acquire-all-keeps-partial': {
    bug: 'AcquireAll that finds a scope busy answers Busy but keeps the leases it took on the scopes before it',
    source: '000 §21–§22, §99–§105',
    rule: 'Multi-resource acquisition: all or nothing (a Busy AcquireAll leaves no lease)',
    invariants: ['no-phantom-lease'],
    scenarios: ['deadlock-order', 'multi-resource-compensation'],
  },
  'complete-ignores-digest': {
    bug: 'IdempotencyComplete records its outcome on the key’s record whatever request digest it carries',
    source: '000 §46–§47, §284',
    rule: 'Idempotency: IdempotencyComplete (a live record with another digest → Conflict)',
    invariants: ['digest-conflict'],
    scenarios: ['idempotency-late-completion'],
  },
  'list-omits-leased': {
    bug: 'ListJobs lists only eligible jobs: a job left leased by an attempt that died is never seen again',
    source: '001 §84–§85, §88, §259',
    rule: 'Jobs: ListJobs (every unfinished job, eligible or leased, in submission order)',
    invariants: ['jobs-complete'],
    scenarios: ['three-node-failover', 'jobs-db-failover', 'standalone-coordination'],
  },

  'dispatch-outside-lease-transaction': {
    bug: 'DispatchJob commits the lease but not the job row: the job stays eligible without its attempt',
    source: '001 §93',
    rule: 'Jobs: DispatchJob (the lease and the job row in one transaction)',
    invariants: ['jobs-complete'],
    scenarios: ['three-node-failover', 'jobs-db-failover'],
  },
  'restore-drops-jobs': {
    bug: 'the store’s image leaves the jobs table out: after a failover or restore every job accepted before the image is gone',
    source: '001 §93, §340; 000 §272–§276',
    rule: 'Store images hold every table (a restore puts the whole durable state of the image in place)',
    invariants: ['jobs-complete'],
    scenarios: ['jobs-db-failover'],
  },
  'authority-epoch-per-scope': {
    bug: 'Acquire and Mutate compare the authority guard with the epoch last seen on the scope, not the domain’s: a failover fences only the scopes the new site has used',
    source: '000 §163–§168, §296',
    rule: 'Leases: Acquire step 1 (stored = roleEpochs[guard.role], one epoch per role whatever the scope); Protected mutation: guard as in Acquire step 1',
    invariants: ['site-authority-first'],
    scenarios: ['federation-site-failover'],
  },
  'tombstones-pruned': {
    bug: 'the store keeps a scope’s ownership record in the scope’s row: when the scope is taken again, the record of the owners before it is overwritten',
    source: '000 §205–§206, §259–§261',
    rule: 'Leases: an ended lease leaves a tombstone, appended and never removed (Acquire removes none)',
    invariants: ['history-retained'],
    scenarios: ['db-failover', 'restore'],
  },
  // The store mutants that show the reach of the check and of the history checkers: each in its own table.
  ...REACH_MUTANTS,
} as const satisfies Readonly<Record<string, Omit<MutantDeclaration, 'name'>>>;

/** The name of a declared store mutant. */
export type StoreMutantName = keyof typeof STORE_MUTANTS;

/** The store mutant names, in report order. */
export const STORE_MUTANT_NAMES = Object.keys(STORE_MUTANTS) as ReadonlyArray<StoreMutantName>;

/** What the store mutant `name` declares, as its Mutant carries it. */
export function declaredMutant(name: StoreMutantName): MutantDeclaration {
  return { name, ...STORE_MUTANTS[name] };
}
