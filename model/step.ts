// The reference state machine: one command at store time `nowMs` gives the next state and the
// command's typed outcome. Every store must return the same outcome for the same sequence.

import { assert, unreachable } from './assert.ts';
import type { Command, CommandKind } from './commands.ts';
import { advanceRoleEpoch } from './role-epoch.ts';
import { planIntent, transitionIntent } from './effect-intent.ts';
import { forceRelease } from './force-release.ts';
import { idempotencyBegin, idempotencyComplete } from './idempotency.ts';
import { dispatchJob, endAttempt, listJobs, submitJob } from './jobs.ts';
import { acquire, handoff, release, renew } from './lease.ts';
import { acquireAll } from './multi-resource.ts';
import type { Outcome, OutcomeOf, Outcomes } from './outcomes.ts';
import { mutate } from './protected-mutation.ts';
import { advanceRecoveryEpoch, reconcileScope } from './recovery.ts';
import { reserve, transitionReservation } from './reservation.ts';
import { acquirePermit, defineCapacity, releasePermit } from './semaphore.ts';
import type { ModelState, Transition } from './state.ts';
import { viewOf } from './view.ts';
import { cancelWait, enqueue } from './wait-queue.ts';

type CommandOf<K extends CommandKind> = Extract<Command, { readonly kind: K }>;

/** The rule of every command kind, as a table over the port: a kind without its rule does not compile. */
const RULES: { readonly [K in CommandKind]: (state: ModelState, command: CommandOf<K>, now: number) => Transition<Outcomes[K]> } = {
  Acquire: acquire,
  Renew: renew,
  Release: release,
  Handoff: handoff,
  ForceRelease: forceRelease,
  Enqueue: enqueue,
  CancelWait: cancelWait,
  Mutate: mutate,
  DefineCapacity: defineCapacity,
  AcquirePermit: acquirePermit,
  ReleasePermit: releasePermit,
  Reserve: reserve,
  ActivateReservation: transitionReservation,
  ConsumeReservation: transitionReservation,
  ReleaseReservation: transitionReservation,
  FailReservation: transitionReservation,
  AcquireAll: acquireAll,
  IdempotencyBegin: idempotencyBegin,
  IdempotencyComplete: idempotencyComplete,
  PlanIntent: planIntent,
  TransitionIntent: transitionIntent,
  AdvanceRecoveryEpoch: advanceRecoveryEpoch,
  ReconcileScope: reconcileScope,
  AdvanceRoleEpoch: advanceRoleEpoch,
  SubmitJob: submitJob,
  DispatchJob: (state, command, now) => dispatchJob(state, command, now),
  // One rule ends an attempt either way; its answer's kind follows the command's.
  FinishJob: endAttempt as (state: ModelState, command: CommandOf<'FinishJob'>) => Transition<Outcomes['FinishJob']>,
  ReturnJob: endAttempt as (state: ModelState, command: CommandOf<'ReturnJob'>) => Transition<Outcomes['ReturnJob']>,
  ListJobs: (state, _command, now) => listJobs(state, now),
  Inspect: (state, _command, now) => ({ state, outcome: { kind: 'Snapshot', view: viewOf(state, now) } }),
};

function dispatch(state: ModelState, command: Command, now: number): Transition<Outcome> {
  if (!Object.hasOwn(RULES, command.kind)) return unreachable(command as never, 'command kind');
  // Each rule takes the commands of its own kind; the table above pairs them.
  const rule = RULES[command.kind] as (state: ModelState, command: Command, now: number) => Transition<Outcome>;
  return rule(state, command, now);
}

export function step<C extends Command>(state: ModelState, command: C, nowMs: number): Transition<OutcomeOf<C>> {
  assert(Number.isSafeInteger(nowMs), 'store time is an integer number of milliseconds');
  assert(nowMs >= 0, 'store time is not negative');
  const result = dispatch(state, command, nowMs);
  assert(typeof result.outcome.kind === 'string', 'every outcome is tagged');
  // The table above pairs each command kind with its own rule, whose return type is exactly
  // Outcomes[kind]; TypeScript cannot follow that through the lookup, hence the cast.
  return result as Transition<OutcomeOf<C>>;
}
