// The reference state machine: one command at store time `nowMs` gives the next state and the
// command's typed outcome. Every store must return the same outcome for the same sequence.

import { assert, unreachable } from './assert.ts';
import type { Command } from './commands.ts';
import { advanceRoleEpoch } from './role-epoch.ts';
import { planIntent, transitionIntent } from './effect-intent.ts';
import { forceRelease } from './force-release.ts';
import { idempotencyBegin, idempotencyComplete } from './idempotency.ts';
import { acquire, handoff, release, renew } from './lease.ts';
import { acquireAll } from './multi-resource.ts';
import type { Outcome, OutcomeOf } from './outcomes.ts';
import { mutate } from './protected-mutation.ts';
import { advanceRecoveryEpoch, reconcileScope } from './recovery.ts';
import { reserve, transitionReservation } from './reservation.ts';
import { acquirePermit, defineCapacity, releasePermit } from './semaphore.ts';
import type { ModelState, Transition } from './state.ts';
import { viewOf } from './view.ts';
import { cancelWait, enqueue } from './wait-queue.ts';

function dispatch(state: ModelState, command: Command, now: number): Transition<Outcome> {
  switch (command.kind) {
    case 'Acquire':
      return acquire(state, command, now);
    case 'Renew':
      return renew(state, command, now);
    case 'Release':
      return release(state, command, now);
    case 'Handoff':
      return handoff(state, command, now);
    case 'ForceRelease':
      return forceRelease(state, command, now);
    case 'Enqueue':
      return enqueue(state, command, now);
    case 'CancelWait':
      return cancelWait(state, command);
    case 'Mutate':
      return mutate(state, command, now);
    case 'DefineCapacity':
      return defineCapacity(state, command);
    case 'AcquirePermit':
      return acquirePermit(state, command, now);
    case 'ReleasePermit':
      return releasePermit(state, command, now);
    case 'Reserve':
      return reserve(state, command, now);
    case 'ActivateReservation':
    case 'ConsumeReservation':
    case 'ReleaseReservation':
    case 'FailReservation':
      return transitionReservation(state, command, now);
    case 'AcquireAll':
      return acquireAll(state, command, now);
    case 'IdempotencyBegin':
      return idempotencyBegin(state, command, now);
    case 'IdempotencyComplete':
      return idempotencyComplete(state, command, now);
    case 'PlanIntent':
      return planIntent(state, command);
    case 'TransitionIntent':
      return transitionIntent(state, command);
    case 'AdvanceRecoveryEpoch':
      return advanceRecoveryEpoch(state, command, now);
    case 'ReconcileScope':
      return reconcileScope(state, command);
    case 'AdvanceRoleEpoch':
      return advanceRoleEpoch(state, command);
    case 'Inspect':
      return { state, outcome: { kind: 'Snapshot', view: viewOf(state, now) } };
    default:
      return unreachable(command, 'command kind');
  }
}

export function step<C extends Command>(state: ModelState, command: C, nowMs: number): Transition<OutcomeOf<C>> {
  assert(Number.isSafeInteger(nowMs), 'store time is an integer number of milliseconds');
  assert(nowMs >= 0, 'store time is not negative');
  const result = dispatch(state, command, nowMs);
  assert(typeof result.outcome.kind === 'string', 'every outcome is tagged');
  // The dispatch above pairs each command kind with its own handler, whose return type is
  // exactly Outcomes[kind]; TypeScript cannot follow that through the switch, hence the cast.
  return result as Transition<OutcomeOf<C>>;
}
