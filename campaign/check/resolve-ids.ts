// Id placeholders filled from the reference state when a step runs: the head of a scope's wait
// queue (so that the waiter whose turn it is acquires), the newest reservation, permit, intent or
// idempotency record, the job waiting for an attempt and the job an attempt holds. Drawn
// literally, ids rarely meet the state a rule is about; drawn from it, a queue's order, an expired
// reservation, an Unknown record or a job's attempts are met within a few steps.

import type { Command, IdempotencyKeyRef } from '../../model/commands.ts';
import type { JobRow } from '../../model/outcomes.ts';
import { liveLease, type ModelState } from '../../model/state.ts';
import { headOf, queueOf } from '../../model/wait-queue.ts';
import { IDS, LIVE_DIGEST, LIVE_ID, LIVE_KEY } from './world.ts';

function last<T>(items: Iterable<T>): T | undefined {
  let found: T | undefined;
  for (const item of items) found = item;
  return found;
}

const FALLBACK_ID = IDS[0]!;

/** The head of `scope`'s queue at `now` (a waiter that may take the lease), else the fallback. */
function headWaiter(state: ModelState, scope: string, now: number): string {
  return headOf(queueOf(state, scope), now)?.waiterId ?? FALLBACK_ID;
}

/** The last-queued waiter of `scope` (the one a CancelWait most often means). */
function queuedWaiter(state: ModelState, scope: string): string {
  return last(queueOf(state, scope))?.waiterId ?? FALLBACK_ID;
}

function newestReservation(state: ModelState): string {
  return last(state.reservationScopes.keys()) ?? FALLBACK_ID;
}

function newestPermit(state: ModelState, scope: string): string {
  return last(state.permits.get(scope)?.keys() ?? []) ?? FALLBACK_ID;
}

function newestIntent(state: ModelState): string {
  return last(state.intents.keys()) ?? FALLBACK_ID;
}

function jobsInOrder(state: ModelState): ReadonlyArray<JobRow> {
  return [...state.jobs.values()].sort((a, b) => a.seq - b.seq);
}

/** The first job a scheduler would dispatch: eligible, or leased to an attempt whose lease is gone (model/jobs.ts). */
function waitingJob(state: ModelState, now: number): string {
  const waiting = (job: JobRow) => job.status === 'eligible' || (job.status === 'leased' && liveLease(state, job.scope, now)?.token !== job.attemptToken);
  return jobsInOrder(state).find(waiting)?.jobId ?? FALLBACK_ID;
}

/** The newest job an attempt holds; failing that, the newest that had an attempt (given back or finished). */
function attemptedJob(state: ModelState): string {
  const jobs = jobsInOrder(state);
  return last(jobs.filter((job) => job.status === 'leased'))?.jobId ?? last(jobs.filter((job) => job.attemptToken > 0))?.jobId ?? FALLBACK_ID;
}

/**
 * With LIVE_KEY, the tenant, operation, subject and key of the newest record, and with
 * LIVE_DIGEST its digest too (the same request again); literal ones stay as drawn.
 */
function recordKey<T extends IdempotencyKeyRef>(state: ModelState, ref: T): T {
  const record = last([...state.idempotency.values()].flatMap((byKey) => [...byKey.values()]));
  const digest = ref.digest === LIVE_DIGEST ? (record?.digest ?? 'd1') : ref.digest;
  if (ref.key !== LIVE_KEY) return { ...ref, digest };
  if (record === undefined) return { ...ref, key: 'k', digest };
  return { ...ref, tenant: record.tenant, operation: record.operation, subject: record.subject, key: record.key, digest };
}

export function resolveIds(state: ModelState, command: Command, now: number): Command {
  switch (command.kind) {
    case 'Acquire':
      return command.waiterId === LIVE_ID ? { ...command, waiterId: headWaiter(state, command.scope, now) } : command;
    case 'CancelWait':
      return command.waiterId === LIVE_ID ? { ...command, waiterId: queuedWaiter(state, command.scope) } : command;
    case 'ReleasePermit':
      return command.permitId === LIVE_ID ? { ...command, permitId: newestPermit(state, command.scope) } : command;
    case 'ActivateReservation':
    case 'ConsumeReservation':
    case 'ReleaseReservation':
    case 'FailReservation':
      return command.reservationId === LIVE_ID ? { ...command, reservationId: newestReservation(state) } : command;
    case 'TransitionIntent':
      return command.intentId === LIVE_ID ? { ...command, intentId: newestIntent(state) } : command;
    case 'IdempotencyBegin':
    case 'IdempotencyComplete':
      return recordKey(state, command);
    case 'DispatchJob':
      return command.jobId === LIVE_ID ? { ...command, jobId: waitingJob(state, now) } : command;
    case 'FinishJob':
    case 'ReturnJob':
      return command.jobId === LIVE_ID ? { ...command, jobId: attemptedJob(state) } : command;
    default:
      return command;
  }
}
