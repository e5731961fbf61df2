// The commands of the store port (docs/ARCHITECTURE.md "The store port"). Every store — the reference
// model, the memory adapter, PostgreSQL, every mutant and a user's module — accepts exactly
// these, and answers with the outcome of the same name in `outcomes.ts`.
//
// Scopes travel as their canonical `ScopeId` string (see `scope.ts`); holders, waiters, permits,
// reservations and intents carry caller-chosen ids so that two stores given the same command
// sequence return identical outcomes (the differential invariant). Times are integer
// milliseconds of store time; callers never send a clock reading that decides expiry.

import type { EffectState, RetrySafety } from './effect-state.ts';
import type { StoredOutcome } from './idempotency-outcome.ts';

/** A typed capability minted by the coordination service (seed 001 §297–§305). */
export interface RoleGuard {
  readonly role: string;
  readonly epoch: number;
}

export interface AcquireCommand {
  readonly kind: 'Acquire';
  readonly scope: string;
  readonly holder: string;
  readonly ttlMs: number;
  /** Set when the caller enqueued first (§86): only the head of the queue may take the lease. */
  readonly waiterId?: string;
  /** Scheduler-epoch fencing in the lease-creation transaction (seed 001 §92–§95). */
  readonly guard?: RoleGuard;
}

export interface RenewCommand {
  readonly kind: 'Renew';
  readonly scope: string;
  readonly holder: string;
  readonly expectedToken: number;
  readonly ttlMs: number;
}

export interface ReleaseCommand {
  readonly kind: 'Release';
  readonly scope: string;
  readonly holder: string;
  readonly token: number;
}

export interface HandoffCommand {
  readonly kind: 'Handoff';
  readonly scope: string;
  readonly holder: string;
  readonly token: number;
  readonly newHolder: string;
  readonly ttlMs: number;
}

export interface ForceReleaseCommand {
  readonly kind: 'ForceRelease';
  readonly scope: string;
  readonly expectedToken: number;
  /**
   * The lease's expiry as the actor observed it. A renewal since then moves it and the force is
   * refused: the force binds to the lease that was judged, not only to its token (seed 002 022d1f8).
   */
  readonly expectedExpiresAt?: number;
  readonly actor: string;
  readonly reason: string;
  /** Holds the `concurrency.force_release` permission (§220–§221). */
  readonly privileged: boolean;
}

export interface EnqueueCommand {
  readonly kind: 'Enqueue';
  readonly scope: string;
  readonly waiterId: string;
  readonly holder: string;
  /** Explicit priority (§91); larger goes first. Aging adds to it while waiting (§92). */
  readonly priority: number;
}

export interface CancelWaitCommand {
  readonly kind: 'CancelWait';
  readonly scope: string;
  readonly waiterId: string;
}

export interface MutateCommand {
  readonly kind: 'Mutate';
  readonly scope: string;
  readonly aggregate: string;
  readonly holder: string;
  readonly token: number;
  readonly expectedVersion: number;
  /** Role or federation-authority guard (seed 001 §94, seed 000 §163–§168), checked when present. */
  readonly guard?: RoleGuard;
}

export interface DefineCapacityCommand {
  readonly kind: 'DefineCapacity';
  readonly scope: string;
  readonly capacity: number;
}

export interface AcquirePermitCommand {
  readonly kind: 'AcquirePermit';
  readonly scope: string;
  readonly permitId: string;
  readonly holder: string;
  readonly units: number;
  readonly ttlMs: number;
}

export interface ReleasePermitCommand {
  readonly kind: 'ReleasePermit';
  readonly scope: string;
  readonly permitId: string;
}

export interface ReserveCommand {
  readonly kind: 'Reserve';
  readonly scope: string;
  readonly reservationId: string;
  readonly owner: string;
  readonly units: number;
  readonly ttlMs: number;
}

export interface ReservationTransitionCommand {
  readonly kind: 'ActivateReservation' | 'ConsumeReservation' | 'ReleaseReservation' | 'FailReservation';
  readonly reservationId: string;
}

export interface AcquireAllCommand {
  readonly kind: 'AcquireAll';
  /** Acquired in canonical (sorted) order, all or nothing (§99–§105). */
  readonly scopes: ReadonlyArray<string>;
  readonly holder: string;
  readonly ttlMs: number;
}

export interface IdempotencyKeyRef {
  readonly tenant: string;
  readonly operation: string;
  readonly subject: string;
  readonly key: string;
  readonly digest: string;
}

export interface IdempotencyBeginCommand extends IdempotencyKeyRef {
  readonly kind: 'IdempotencyBegin';
  readonly retentionMs: number;
  /** Operation policy (§51): may the same key be retried after FailedTerminal? */
  readonly retryAfterTerminal: boolean;
}

export interface IdempotencyCompleteCommand extends IdempotencyKeyRef {
  readonly kind: 'IdempotencyComplete';
  readonly outcome: StoredOutcome;
}

export interface PlanIntentCommand {
  readonly kind: 'PlanIntent';
  readonly intentId: string;
  readonly scope: string;
  readonly token: number;
  readonly operation: string;
  readonly retrySafety: RetrySafety;
}

export interface TransitionIntentCommand {
  readonly kind: 'TransitionIntent';
  readonly intentId: string;
  readonly to: EffectState;
}

export interface AdvanceRecoveryEpochCommand {
  readonly kind: 'AdvanceRecoveryEpoch';
  /** The restore/failover procedure's own generation counter, kept outside the restored data. */
  readonly atLeast: number;
  /** Scopes that stay BlockedForReconciliation until reconciled (§237, §275). */
  readonly blockScopes: ReadonlyArray<string>;
}

export interface ReconcileScopeCommand {
  readonly kind: 'ReconcileScope';
  readonly scope: string;
  readonly actor: string;
}

export interface AdvanceRoleEpochCommand {
  readonly kind: 'AdvanceRoleEpoch';
  readonly role: string;
  readonly epoch: number;
}

/** Seed 001 §36–§41, §84–§85, §93: the jobs table, written through the store (jobs.ts). */
export interface SubmitJobCommand {
  readonly kind: 'SubmitJob';
  readonly jobId: string;
  readonly scope: string;
}

/** Creates the job's lease and marks the job leased in one transaction, under the role guard (001 §93). */
export interface DispatchJobCommand {
  readonly kind: 'DispatchJob';
  readonly jobId: string;
  readonly holder: string;
  readonly ttlMs: number;
  readonly guard?: RoleGuard;
}

/** The attempt holding `token` finished the job. */
export interface FinishJobCommand {
  readonly kind: 'FinishJob';
  readonly jobId: string;
  readonly token: number;
}

/** The attempt holding `token` gives the job back to the table. */
export interface ReturnJobCommand {
  readonly kind: 'ReturnJob';
  readonly jobId: string;
  readonly token: number;
}

/** The unfinished jobs, in submission order: what a new leader rebuilds its queue from (001 §84–§85). */
export interface ListJobsCommand {
  readonly kind: 'ListJobs';
}

export interface InspectCommand {
  readonly kind: 'Inspect';
}

export type Command =
  | AcquireCommand
  | RenewCommand
  | ReleaseCommand
  | HandoffCommand
  | ForceReleaseCommand
  | EnqueueCommand
  | CancelWaitCommand
  | MutateCommand
  | DefineCapacityCommand
  | AcquirePermitCommand
  | ReleasePermitCommand
  | ReserveCommand
  | ReservationTransitionCommand
  | AcquireAllCommand
  | IdempotencyBeginCommand
  | IdempotencyCompleteCommand
  | PlanIntentCommand
  | TransitionIntentCommand
  | AdvanceRecoveryEpochCommand
  | ReconcileScopeCommand
  | AdvanceRoleEpochCommand
  | SubmitJobCommand
  | DispatchJobCommand
  | FinishJobCommand
  | ReturnJobCommand
  | ListJobsCommand
  | InspectCommand;

export type CommandKind = Command['kind'];
