// Every outcome kind each command of the port can answer, as data, for coverage: which of them a
// workload reaches. The compiler holds the table to the port: each listed kind must be one of the
// command's outcomes, and a kind missing from a list does not compile.

import type { Command, CommandKind } from './commands.ts';
import type { OutcomeOf, Outcomes } from './outcomes.ts';

type KindsOf<K extends CommandKind> = ReadonlyArray<Outcomes[K]['kind']>;
/** The outcome kinds of K that `L` leaves out (never when `L` lists them all). */
type Missing<K extends CommandKind, L> = Exclude<Outcomes[K]['kind'], L extends ReadonlyArray<infer E> ? E : never>;
type Complete<T> = { [K in CommandKind]: K extends keyof T ? (Missing<K, T[K]> extends never ? KindsOf<K> : { missing: Missing<K, T[K]> }) : never };

const transition = ['ReservationUpdated', 'ReservationExpired', 'InvalidState', 'NotFound'] as const;

const TABLE = {
  Acquire: ['Acquired', 'Busy', 'Rejected', 'Fenced'],
  Renew: ['Renewed', 'Stale', 'Expired', 'Rejected'],
  Release: ['Released', 'Stale'],
  Handoff: ['HandedOff', 'Stale', 'Rejected'],
  ForceRelease: ['ForceReleased', 'Stale', 'Denied'],
  Enqueue: ['Enqueued', 'Rejected'],
  CancelWait: ['WaitCancelled', 'NotWaiting'],
  Mutate: ['Accepted', 'StaleFence', 'StaleVersion', 'Fenced'],
  DefineCapacity: ['Defined', 'Rejected'],
  AcquirePermit: ['Granted', 'Busy', 'Rejected'],
  ReleasePermit: ['PermitReleased', 'NotHeld'],
  Reserve: ['Reserved', 'Overbooked', 'Rejected'],
  ActivateReservation: transition,
  ConsumeReservation: transition,
  ReleaseReservation: transition,
  FailReservation: transition,
  AcquireAll: ['AcquiredAll', 'Busy', 'Rejected'],
  IdempotencyBegin: ['New', 'InProgress', 'Replay', 'Conflict', 'Unknown', 'Rejected'],
  IdempotencyComplete: ['Recorded', 'Conflict', 'NotFound', 'AlreadyFinal'],
  PlanIntent: ['Planned', 'Duplicate'],
  TransitionIntent: ['Transitioned', 'InvalidTransition', 'NotFound'],
  AdvanceRecoveryEpoch: ['RecoveryAdvanced'],
  ReconcileScope: ['Reconciled', 'NotBlocked'],
  AdvanceRoleEpoch: ['RoleEpochAdvanced', 'Fenced'],
  SubmitJob: ['JobSubmitted', 'JobExists', 'Rejected'],
  DispatchJob: ['JobDispatched', 'NotDispatchable', 'Busy', 'Rejected', 'Fenced'],
  FinishJob: ['JobFinished', 'StaleAttempt'],
  ReturnJob: ['JobReturned', 'StaleAttempt'],
  ListJobs: ['JobList'],
  Inspect: ['Snapshot'],
} as const;

export const OUTCOME_KINDS: Complete<typeof TABLE> = TABLE;

export const COMMAND_KINDS = Object.keys(TABLE) as ReadonlyArray<CommandKind>;

/** `Command:Outcome` for every outcome of every command: the universe outcome coverage is measured against. */
export const OUTCOME_PAIRS: ReadonlyArray<string> = COMMAND_KINDS.flatMap((command) => (OUTCOME_KINDS[command] as ReadonlyArray<string>).map((outcome) => `${command}:${outcome}`));

/**
 * Whether `answer` is an outcome of `command`, told by its kind (its token and fields are the port
 * contract's to check: sim/port-contract.ts). Where an outcome comes apart from its command (a
 * store's answer, a reply over the simulated network) the compiler cannot tie it to `OutcomeOf<C>`
 * any more; this check does, at run time.
 */
export function isOutcomeOf<C extends Command>(command: C, answer: unknown): answer is OutcomeOf<C> {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer) || !('kind' in answer)) return false;
  const kinds: ReadonlyArray<unknown> = OUTCOME_KINDS[command.kind];
  return kinds.includes(answer.kind);
}
