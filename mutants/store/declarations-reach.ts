// The store mutants that show how far the command-level check and the history checkers reach, in
// the shape of declarations.ts: a bug that shows only in a call's process or after a lifecycle
// event (session-reentrant-acquire, unlogged-leases), with a live attempt token
// (finish-after-return), at an edge of a value's domain (ttl-max-excluded, blank-reason-ascii-only),
// after many scopes (acquire-all-first-eight), in an outcome pair only a misbehaving client meets
// (force-release-ignores-privilege), and the classes the differential alone used to judge
// (complete-overwrites-final, expired-units-still-counted, busy-from-lease-cache).

import type { StoreDeclaration } from '../entry.ts';

export const REACH_MUTANTS = {
  'session-reentrant-acquire': {
    bug: 'Acquire from the process that took the scope’s live lease is granted again under a new token, whatever holder it names, as a session re-enters an advisory lock it holds',
    source: '000 §21–§24, §72–§74, §279',
    rows: ['000-315-one-owner-per-scope'],
    rule: 'Processes and lifecycle: an outcome is the same whichever process sends the command; Leases: Acquire step 4 (live lease → Busy)',
    invariants: ['lease-exclusive'],
    scenarios: ['three-node-failover', 'scheduler-epoch', 'stale-leader-epoch'],
  },
  'unlogged-leases': {
    bug: 'the lease rows live in an unlogged table: a database crash empties it, so every lease ends before its expiry while its holder still owns it',
    source: '000 §74, §286',
    rows: ['000-315-one-owner-per-scope'],
    rule: 'Processes and lifecycle: no lifecycle event changes the state (a database crash ends no lease)',
    invariants: ['lease-exclusive'],
    scenarios: ['db-crash'],
  },
  'finish-after-return': {
    bug: 'FinishJob matches the job’s attempt token but not its status: an attempt that gave its job back can still finish it, and the job is done though no attempt ran it',
    source: '001 §76–§77, §84–§85',
    rows: ['001-338-postgres-metadata-authority', '001-340-inv-postgres-authority'],
    rule: 'Jobs: FinishJob and ReturnJob (only the latest attempt of a leased job ends it; an attempt that gave its job back → StaleAttempt)',
    checkOnly: 'no workload finishes an attempt it gave back: the scheduler sends ReturnJob or FinishJob for an attempt, never both',
    scenarios: [],
  },
  'ttl-max-excluded': {
    bug: 'the ttl bound of the lease commands is checked with < where the rule says ≤: a lease of exactly the maximum TTL is refused as out of bounds',
    source: '000 §31',
    rows: ['000-315-one-owner-per-scope'],
    rule: 'Constants: a ttl is an integer in 1..LEASE_TTL_MAX_MS (Acquire step 2, Renew, Handoff, AcquireAll → Rejected ttl-out-of-bounds only outside it)',
    checkOnly: 'no workload asks for a lease of the maximum TTL: the longest a scenario takes is 4 s, the maximum is 10 minutes',
    scenarios: [],
  },
  'blank-reason-ascii-only': {
    bug: 'ForceRelease judges a reason blank by trimming ASCII white space only (as SQL btrim does): a reason of tabs, line breaks or no-break spaces releases the lease as if it gave a reason',
    source: '000 §200–§206, §290',
    rows: ['000-315-force-release-exact', '000-317-inv-force-release-audited'],
    rule: 'Leases: ForceRelease (reason.trim() === \'\' → Denied reason-required; trim strips Unicode white space and line terminators, clarification 14)',
    // The force-release operator always writes one sentence saying why; the operator script of the
    // misbehaving client (sim/misbehaving-client.ts) sends a reason of white space only.
    invariants: ['force-release-audited'],
    scenarios: ['retried-and-late-requests'],
  },
  'acquire-all-first-eight': {
    bug: 'AcquireAll checks the first eight scopes of its canonical order only (one batch of bound parameters), and takes the rest unchecked: a ninth scope with a live lease is taken from its holder',
    source: '000 §99–§109, §21–§24',
    rows: ['000-315-multi-resource-composite', '000-317-inv-no-arbitrary-nesting'],
    rule: 'Multi-resource acquisition: AcquireAll visits every scope in canonical order (the first with a live lease → Busy); only if every scope is free are leases issued',
    checkOnly: 'no workload acquires more than three scopes at once: a multi-resource operation takes an environment, a device and an account',
    scenarios: [],
  },
  'force-release-ignores-privilege': {
    bug: 'ForceRelease never reads `privileged`: the privilege is checked at the admin endpoint, and the store removes a live lease for any caller',
    source: '000 §200–§206, §290',
    rows: ['000-315-force-release-exact', '000-317-inv-force-release-audited'],
    rule: 'Leases: ForceRelease (!privileged → Denied not-privileged)',
    invariants: ['force-release-audited'],
    scenarios: ['retried-and-late-requests'],
  },
  'complete-overwrites-final': {
    bug: 'IdempotencyComplete writes its outcome whatever state the record is in: a late or repeated completion overwrites the final outcome an earlier one recorded',
    source: '000 §45, §48–§51, §283–§284',
    rows: ['000-316-provider-unknown-reconciliation'],
    rule: 'Idempotency: IdempotencyComplete (state Succeeded/FailedTerminal → AlreadyFinal { outcome }, nothing changes)',
    invariants: ['idempotency-final'],
    scenarios: ['idempotency-late-completion', 'idempotency-unknown-outcome'],
  },
  'expired-units-still-counted': {
    bug: 'units in use count permits and Pending/Active reservations without their expiry: one that ran out without a release keeps its units',
    source: '000 §93–§98, §207–§212',
    rows: ['000-315-reservations-expire', '000-317-inv-reservations-not-leases'],
    rule: 'Semaphores and reservations: units in use = live permits (now < expiresAt) + Pending/Active unexpired reservations (in use + units > capacity → Busy / Overbooked, only then)',
    invariants: ['capacity-refusal'],
    scenarios: ['semaphore-capacity', 'multi-resource-compensation', 'renewal-failure-stops-holder'],
  },
  'busy-from-lease-cache': {
    bug: 'Acquire answers Busy from a process-local copy of each scope’s live lease, which neither a restore nor the recovery that invalidates every lease clears',
    source: '000 §272–§276, §297; 000 §21–§24',
    rows: ['000-316-dr-invalidates-leases', '000-315-restore-invalidates-leases', '000-317-inv-restore-invalidates'],
    rule: 'Recovery: AdvanceRecoveryEpoch (every live lease is removed); a restore puts the image’s state in place (no answer names a lease the image lacks)',
    invariants: ['restore-forgets'],
    scenarios: ['restore', 'db-failover', 'jobs-db-failover'],
  },
} as const satisfies Readonly<Record<string, StoreDeclaration>>;
