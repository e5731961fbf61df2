// The store mutants of the records beside the leases, in the shape of declarations.ts and in the
// order of the mutation report after its lease mutants: units in use and reservations, idempotency
// records, multi-resource acquisition, jobs, a domain's authority epoch and the ownership history
// (tombstones).

import type { StoreDeclaration } from '../entry.ts';

export const RECORD_MUTANTS = {
  'reservations-not-counted': {
    bug: 'units in use count live permits only: Pending and Active reservations are not counted against the capacity',
    source: '000 §93–§98, §207, §292–§293',
    rows: ['000-315-reservations-within-capacity', '000-317-inv-capacity-enforced'],
    rule: 'Semaphores and reservations: units in use = live permits + Pending/Active unexpired reservations',
    invariants: ['capacity'],
    scenarios: ['multi-resource-compensation', 'clock-skew', 'standard-mix'],
  },
  'expired-reservation-consumed': {
    bug: 'ConsumeReservation consumes a Pending or Active reservation whose expiry has passed',
    source: '000 §37–§42, §207–§213, §292',
    rows: ['000-315-reservations-expire', '000-317-inv-reservations-not-leases'],
    rule: 'Semaphores and reservations: an expired reservation is never consumed (ReservationExpired)',
    invariants: ['capacity'],
    scenarios: ['renewal-failure-stops-holder', 'multi-resource-compensation', 'clock-skew'],
  },
  'digest-ignored': {
    bug: 'IdempotencyBegin and IdempotencyComplete ignore the request digest: another request reusing a key is not a Conflict',
    source: '000 §46–§47, §284',
    rows: ['000-316-idempotency-digest-conflict', '000-315-digest-mismatch-rejected', '000-317-inv-same-key-different-request'],
    rule: 'Idempotency: IdempotencyBegin (present with another digest → Conflict, whatever the state)',
    invariants: ['digest-conflict'],
    scenarios: ['idempotency-different-request', 'standard-mix'],
  },
  'idempotency-key-unscoped': {
    bug: 'idempotency records are identified by the key alone: a key reused by another tenant, operation or subject finds that other record',
    source: '000 §44–§45, §47',
    rows: ['000-315-idempotency-key-scoped', '000-317-inv-idempotency-scope'],
    rule: 'Idempotency: a record is identified by (tenant, operation, subject, key)',
    invariants: ['idempotency-scope'],
    scenarios: ['idempotency-different-request', 'standard-mix'],
  },
  'unknown-begins-new': {
    bug: 'IdempotencyBegin on a record in state Unknown answers New and restarts it instead of Unknown',
    source: '000 §52–§53, §285, §315',
    rows: ['000-315-unknown-not-new-operation', '000-317-inv-unknown-first-class'],
    rule: 'Idempotency: IdempotencyBegin (same digest, Unknown → Unknown, never a new operation)',
    invariants: ['unknown-not-new'],
    scenarios: ['idempotency-unknown-outcome', 'provider-timeout-unknown'],
  },
  'acquire-all-keeps-partial': {
    bug: 'AcquireAll that finds a scope busy answers Busy but keeps the leases it took on the scopes before it',
    source: '000 §21–§22, §99–§105',
    rows: ['000-315-multi-resource-composite', '000-317-inv-no-arbitrary-nesting'],
    rule: 'Multi-resource acquisition: all or nothing (a Busy AcquireAll leaves no lease)',
    invariants: ['no-phantom-lease'],
    scenarios: ['deadlock-order', 'multi-resource-compensation'],
  },
  'complete-ignores-digest': {
    bug: 'IdempotencyComplete records its outcome on the key’s record whatever request digest it carries',
    source: '000 §46–§47, §284',
    rows: ['000-316-idempotency-digest-conflict', '000-315-digest-mismatch-rejected', '000-317-inv-same-key-different-request'],
    rule: 'Idempotency: IdempotencyComplete (a live record with another digest → Conflict)',
    invariants: ['digest-conflict'],
    scenarios: ['idempotency-late-completion'],
  },
  'list-omits-leased': {
    bug: 'ListJobs lists only eligible jobs: a job left leased by an attempt that died is never seen again',
    source: '001 §84–§85, §88, §259',
    rows: ['001-338-postgres-metadata-authority', '001-338-leader-reconstructs-from-db', '001-340-inv-postgres-authority', '001-340-inv-leaders-from-db', '001-340-inv-reconciliation-follows-failover'],
    rule: 'Jobs: ListJobs (every unfinished job, eligible or leased, in submission order)',
    invariants: ['jobs-complete'],
    scenarios: ['three-node-failover', 'jobs-db-failover', 'standalone-coordination'],
  },
  'dispatch-outside-lease-transaction': {
    bug: 'DispatchJob commits the lease but not the job row: the job stays eligible without its attempt',
    source: '001 §93',
    rows: ['001-338-postgres-metadata-authority', '001-340-inv-postgres-authority'],
    rule: 'Jobs: DispatchJob (the lease and the job row in one transaction)',
    invariants: ['jobs-complete'],
    scenarios: ['three-node-failover', 'jobs-db-failover'],
  },
  'restore-drops-jobs': {
    bug: 'the store’s image leaves the jobs table out: after a failover or restore every job accepted before the image is gone',
    source: '001 §93, §340; 000 §272–§276',
    rows: ['001-338-dr-preserves-business-state', '001-340-inv-business-state-readable'],
    rule: 'Store images hold every table (a restore puts the whole durable state of the image in place)',
    invariants: ['jobs-complete'],
    scenarios: ['jobs-db-failover'],
  },
  'authority-epoch-per-scope': {
    bug: 'Acquire and Mutate compare the authority guard with the epoch last seen on the scope, not the domain’s: a failover fences only the scopes the new site has used',
    source: '000 §163–§168, §296',
    rows: ['000-316-federation-authority', '000-315-federation-fences-site', '000-317-inv-site-authority-first'],
    rule: 'Leases: Acquire step 1 (stored = roleEpochs[guard.role], one epoch per role whatever the scope); Protected mutation: guard as in Acquire step 1',
    invariants: ['site-authority-first'],
    scenarios: ['federation-site-failover'],
  },
  'tombstones-pruned': {
    bug: 'the store keeps a scope’s ownership record in the scope’s row: when the scope is taken again, the record of the owners before it is overwritten',
    source: '000 §205–§206, §259–§261',
    rows: ['000-315-lease-history-retained', '000-317-inv-history-retained'],
    rule: 'Leases: an ended lease leaves a tombstone, appended and never removed (Acquire removes none)',
    invariants: ['history-retained'],
    scenarios: ['db-failover', 'restore'],
  },
} as const satisfies Readonly<Record<string, StoreDeclaration>>;
