// The typed outcomes of the store port: a domain outcome is always a returned value, never an
// exception (docs/ARCHITECTURE.md "The store port"). `OutcomeOf<C>` ties each command to its outcome union.

import type { Command } from './commands.ts';
import type { EffectState, RetrySafety } from './effect-state.ts';
import type { StoredOutcome } from './idempotency-outcome.ts';

export interface Lease {
  readonly scope: string;
  readonly holder: string;
  /** Fencing token: strictly increasing per scope, never reused or reset (§24, §203–§204). */
  readonly token: number;
  readonly acquiredAt: number;
  readonly expiresAt: number;
}

export interface Tombstone {
  readonly scope: string;
  readonly holder: string;
  readonly token: number;
  readonly endedAt: number;
  readonly cause: 'released' | 'expired' | 'handed-off' | 'force-released' | 'restored';
  readonly actor?: string;
  readonly reason?: string;
}

export type RejectReason =
  | 'ttl-out-of-bounds'
  | 'blocked-for-reconciliation'
  | 'quarantined'
  | 'not-head-of-queue'
  | 'unknown-waiter'
  | 'invalid-argument'
  | 'undefined-capacity';

/** The request is refused as it stands: out of bounds, or not allowed on the scope now. */
export type RejectedOutcome = { readonly kind: 'Rejected'; readonly reason: RejectReason };

/** The caller's token is not the scope's live lease's (null: no live lease). */
export type StaleOutcome = { readonly kind: 'Stale'; readonly currentToken: number | null };

/** The role guard carries an older epoch than the store has seen for the role. */
export type FencedOutcome = { readonly kind: 'Fenced'; readonly role: string; readonly currentEpoch: number };

export type AcquireResult =
  | { readonly kind: 'Acquired'; readonly lease: Lease }
  | { readonly kind: 'Busy'; readonly holder: string; readonly token: number; readonly expiresAt: number }
  | RejectedOutcome
  | FencedOutcome;

export type RenewResult =
  | { readonly kind: 'Renewed'; readonly lease: Lease }
  | StaleOutcome
  | { readonly kind: 'Expired' }
  | RejectedOutcome;

export type ReleaseResult =
  | { readonly kind: 'Released'; readonly token: number }
  | StaleOutcome;

export type HandoffResult =
  | { readonly kind: 'HandedOff'; readonly lease: Lease }
  | StaleOutcome
  | RejectedOutcome;

export type ForceReleaseResult =
  | { readonly kind: 'ForceReleased'; readonly tombstone: Tombstone; readonly nextToken: number }
  | StaleOutcome
  | { readonly kind: 'Denied'; readonly reason: 'not-privileged' | 'reason-required' };

export type EnqueueResult =
  | { readonly kind: 'Enqueued'; readonly position: number }
  | RejectedOutcome;

export type CancelWaitResult = { readonly kind: 'WaitCancelled' } | { readonly kind: 'NotWaiting' };

export type MutateResult =
  | { readonly kind: 'Accepted'; readonly version: number; readonly token: number }
  | { readonly kind: 'StaleFence'; readonly currentToken: number | null }
  | { readonly kind: 'StaleVersion'; readonly currentVersion: number }
  | FencedOutcome;

export type DefineCapacityResult =
  | { readonly kind: 'Defined'; readonly capacity: number }
  | RejectedOutcome;

/** Units of a capacity scope held until an expiry: a permit, or a reservation while it holds. */
export interface HeldUnits {
  readonly scope: string;
  readonly units: number;
  readonly expiresAt: number;
}

/** How many units are in use on a scope, against its capacity. */
export interface UnitsInUse {
  readonly inUse: number;
  readonly capacity: number;
}

export interface Permit extends HeldUnits {
  readonly permitId: string;
  readonly holder: string;
}

export interface Reservation extends HeldUnits {
  readonly reservationId: string;
  readonly owner: string;
  readonly state: ReservationState;
  readonly createdAt: number;
}

export type ReservationState = 'Pending' | 'Active' | 'Consumed' | 'Released' | 'Expired' | 'Failed';

export type AcquirePermitResult =
  | { readonly kind: 'Granted'; readonly permit: Permit }
  | ({ readonly kind: 'Busy' } & UnitsInUse)
  | RejectedOutcome;

export type ReleasePermitResult = { readonly kind: 'PermitReleased' } | { readonly kind: 'NotHeld' };

export type ReserveResult =
  | { readonly kind: 'Reserved'; readonly reservation: Reservation }
  | ({ readonly kind: 'Overbooked' } & UnitsInUse)
  | RejectedOutcome;

export type ReservationTransitionResult =
  | { readonly kind: 'ReservationUpdated'; readonly reservation: Reservation }
  | { readonly kind: 'ReservationExpired' }
  | { readonly kind: 'InvalidState'; readonly state: ReservationState }
  | { readonly kind: 'NotFound' };

export type AcquireAllResult =
  | { readonly kind: 'AcquiredAll'; readonly leases: ReadonlyArray<Lease> }
  | { readonly kind: 'Busy'; readonly scope: string; readonly holder: string; readonly token: number }
  | RejectedOutcome;

export type IdempotencyBeginResult =
  | { readonly kind: 'New' }
  | { readonly kind: 'InProgress' }
  | { readonly kind: 'Replay'; readonly outcome: StoredOutcome }
  | { readonly kind: 'Conflict'; readonly existingDigest: string }
  | { readonly kind: 'Unknown' }
  | RejectedOutcome;

export type IdempotencyCompleteResult =
  | { readonly kind: 'Recorded' }
  | { readonly kind: 'Conflict'; readonly existingDigest: string }
  | { readonly kind: 'NotFound' }
  | { readonly kind: 'AlreadyFinal'; readonly outcome: StoredOutcome };

export interface EffectIntent {
  readonly intentId: string;
  readonly scope: string;
  readonly token: number;
  readonly operation: string;
  readonly retrySafety: RetrySafety;
  readonly state: EffectState;
}

export type PlanIntentResult =
  | { readonly kind: 'Planned'; readonly intent: EffectIntent }
  | { readonly kind: 'Duplicate'; readonly intent: EffectIntent };

export type TransitionIntentResult =
  | { readonly kind: 'Transitioned'; readonly intent: EffectIntent }
  | { readonly kind: 'InvalidTransition'; readonly from: EffectState; readonly to: EffectState }
  | { readonly kind: 'NotFound' };

export type AdvanceRecoveryEpochResult = {
  readonly kind: 'RecoveryAdvanced';
  readonly recoveryEpoch: number;
  /** Leases that were active when the epoch advanced and are now invalid (§273). */
  readonly invalidated: number;
};

export type ReconcileScopeResult = { readonly kind: 'Reconciled' } | { readonly kind: 'NotBlocked' };

export type AdvanceRoleEpochResult =
  | { readonly kind: 'RoleEpochAdvanced'; readonly role: string; readonly epoch: number }
  | FencedOutcome;

/** A row of the jobs table (model/jobs.ts). */
export interface JobRow {
  readonly jobId: string;
  readonly scope: string;
  readonly status: 'eligible' | 'leased' | 'done';
  /** The token of the job's latest attempt (0: none yet): only that attempt may finish or return it. */
  readonly attemptToken: number;
  /** Attempts dispatched so far. */
  readonly attempts: number;
  /** Submission order (from 1). */
  readonly seq: number;
}

export type SubmitJobResult =
  | { readonly kind: 'JobSubmitted'; readonly job: JobRow }
  | { readonly kind: 'JobExists'; readonly job: JobRow }
  | RejectedOutcome;

export type DispatchJobResult =
  | { readonly kind: 'JobDispatched'; readonly job: JobRow; readonly lease: Lease }
  | { readonly kind: 'NotDispatchable'; readonly job: JobRow | null }
  | Exclude<AcquireResult, { readonly kind: 'Acquired' }>;

/** FinishJob answers JobFinished, ReturnJob JobReturned; either StaleAttempt when `token` is not the job's current attempt. */
export type JobAttemptResult<K extends 'JobFinished' | 'JobReturned' = 'JobFinished' | 'JobReturned'> =
  | { readonly kind: K; readonly job: JobRow }
  | { readonly kind: 'StaleAttempt'; readonly job: JobRow | null };

/** A listed job: its row, and whether its latest attempt's lease is live now (store time decides, 000 §79–§82). */
export interface ListedJob extends JobRow {
  readonly attemptLive: boolean;
}

export type ListJobsResult = { readonly kind: 'JobList'; readonly jobs: ReadonlyArray<ListedJob> };

export type ScopeOperationalState = 'Free' | 'Owned' | 'Waiting' | 'BlockedForReconciliation' | 'Quarantined';

export interface Waiter {
  readonly scope: string;
  readonly waiterId: string;
  readonly holder: string;
  readonly priority: number;
  readonly enqueuedAt: number;
  readonly seq: number;
}

export interface IdempotencyRecord {
  readonly tenant: string;
  readonly operation: string;
  readonly subject: string;
  readonly key: string;
  readonly digest: string;
  readonly state: 'InProgress' | StoredOutcome['kind'];
  readonly outcome: StoredOutcome | null;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/**
 * A normalized, deterministic picture of a store (every list sorted by its ids), used by the
 * doctor checks (§229) and by differential comparison between stores.
 */
export interface StoreView {
  readonly recoveryEpoch: number;
  readonly leases: ReadonlyArray<Lease>;
  readonly tokens: ReadonlyArray<{ readonly scope: string; readonly lastToken: number }>;
  readonly tombstones: ReadonlyArray<Tombstone>;
  readonly waiters: ReadonlyArray<Waiter>;
  readonly capacities: ReadonlyArray<{ readonly scope: string; readonly capacity: number }>;
  readonly permits: ReadonlyArray<Permit>;
  readonly reservations: ReadonlyArray<Reservation>;
  readonly idempotency: ReadonlyArray<IdempotencyRecord>;
  readonly intents: ReadonlyArray<EffectIntent>;
  readonly aggregates: ReadonlyArray<{ readonly scope: string; readonly aggregate: string; readonly version: number; readonly lastToken: number }>;
  readonly scopeStates: ReadonlyArray<{ readonly scope: string; readonly state: ScopeOperationalState }>;
  readonly roleEpochs: ReadonlyArray<{ readonly role: string; readonly epoch: number }>;
}

export type InspectResult = { readonly kind: 'Snapshot'; readonly view: StoreView };

export interface Outcomes {
  Acquire: AcquireResult;
  Renew: RenewResult;
  Release: ReleaseResult;
  Handoff: HandoffResult;
  ForceRelease: ForceReleaseResult;
  Enqueue: EnqueueResult;
  CancelWait: CancelWaitResult;
  Mutate: MutateResult;
  DefineCapacity: DefineCapacityResult;
  AcquirePermit: AcquirePermitResult;
  ReleasePermit: ReleasePermitResult;
  Reserve: ReserveResult;
  ActivateReservation: ReservationTransitionResult;
  ConsumeReservation: ReservationTransitionResult;
  ReleaseReservation: ReservationTransitionResult;
  FailReservation: ReservationTransitionResult;
  AcquireAll: AcquireAllResult;
  IdempotencyBegin: IdempotencyBeginResult;
  IdempotencyComplete: IdempotencyCompleteResult;
  PlanIntent: PlanIntentResult;
  TransitionIntent: TransitionIntentResult;
  AdvanceRecoveryEpoch: AdvanceRecoveryEpochResult;
  ReconcileScope: ReconcileScopeResult;
  AdvanceRoleEpoch: AdvanceRoleEpochResult;
  SubmitJob: SubmitJobResult;
  DispatchJob: DispatchJobResult;
  FinishJob: JobAttemptResult<'JobFinished'>;
  ReturnJob: JobAttemptResult<'JobReturned'>;
  ListJobs: ListJobsResult;
  Inspect: InspectResult;
}

export type OutcomeOf<C extends Command> = Outcomes[C['kind']];
export type Outcome = Outcomes[keyof Outcomes];
