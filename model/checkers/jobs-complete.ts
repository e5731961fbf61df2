// jobs-complete (seed 001 §84–§88, §259: a new leader rebuilds its view from the database and
// takes back the work a failed leader's attempts left; §283: after failover no job is lost; §93:
// the jobs table is written through the store). Two rules over the jobs the store accepted (a
// SubmitJob answered JobSubmitted or JobExists):
// - once faults heal (the `liveness-phase` fault event), every accepted job finishes within
//   `boundMs` of the latest of its acceptance, the phase start and the last time another job on
//   its scope finished (it may wait its turn, but not longer). A job whose row may have been
//   written inside the window a database failover or restore rolled back (after the image it put
//   in place, before the fault) may be gone with that window: it is not owed.
// - the store answers JobFinished for at most one attempt (token) of a job, unless a failover or
//   restore put an older image in place between the two answers.
// A job is a `job` operation of its own process: ok when the store first answered JobFinished. A
// FinishJob whose answer was lost (its process died) may have finished the job: such a job counts
// as finished at the first ListJobs answer after it that no longer lists it.

import type { FaultEvent, History, OpEvent } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { controllerOps, faultsOf, pairOperations, requireNumber, requireString, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'jobs-complete';

/** A failover or restore that replaced the store's image: the window [imageTime, time) it rolled back. */
interface RolledBack {
  readonly fault: FaultEvent;
  readonly imageTime: number;
}

function rollbacks(history: History): ReadonlyArray<RolledBack> {
  const out: RolledBack[] = [];
  for (const fault of faultsOf(history, ['db-failover', 'db-restore'])) {
    const value = fault.value as Readonly<Record<string, unknown>>;
    if (value['skipped'] === true || value['phase'] === 'cut' || value['phase'] === 'backup') continue;
    const age = typeof value['lagMs'] === 'number' ? value['lagMs'] : typeof value['snapshotAgeMs'] === 'number' ? value['snapshotAgeMs'] : 0;
    out.push({ fault, imageTime: typeof value['imageTime'] === 'number' ? value['imageTime'] : fault.time - age });
  }
  return out;
}

export function jobsComplete(history: History): Verdict {
  const operations = pairOperations(history);
  const rolled = rollbacks(history);
  const violations = finishedTwice(operations, rolled);
  const phase = faultsOf(history, ['liveness-phase'])[0];
  if (phase === undefined) return verdictOf(violations);
  const boundMs = requireNumber(phase.value, 'boundMs', phase.index);
  // When the store first acknowledged each job.
  const accepted = new Map<string, Operation>();
  for (const { op, command, outcome } of storeOps(operations, 'SubmitJob')) {
    if ((outcome?.kind === 'JobSubmitted' || outcome?.kind === 'JobExists') && !accepted.has(command.jobId)) accepted.set(command.jobId, op);
  }
  const unconfirmed = finishedUnconfirmed(operations);
  const jobs = controllerOps(operations, 'job');
  // When each scope was last handed on: the times jobs on it finished.
  const finishes = new Map<string, number[]>();
  for (const job of jobs) {
    if (job.completion?.type !== 'ok') continue;
    const scope = requireString(job.invoke.value, 'scope', job.invoke.index);
    finishes.set(scope, [...(finishes.get(scope) ?? []), job.completion.time]);
  }
  const undecided: Violation[] = [];
  for (const job of jobs) {
    const id = requireString(job.invoke.value, 'jobId', job.invoke.index);
    const scope = requireString(job.invoke.value, 'scope', job.invoke.index);
    const submit = accepted.get(id);
    const ack = submit?.completion;
    if (submit === undefined || ack === undefined || ack === null) continue;
    // The row was written somewhere between the SubmitJob's sending and its answer.
    if (rolled.some((r) => submit.invoke.time <= r.fault.time && r.imageTime <= ack.time)) continue;
    const done = job.completion?.type === 'ok' ? job.completion : (unconfirmed.get(id) ?? job.completion);
    const finished = done !== null && done.type === 'ok';
    const end = done?.time ?? history.at(-1)?.time ?? phase.time;
    // A job waits its turn behind the jobs before it on its scope: its bound runs from the later of
    // its acceptance, the phase start and the last time another job on its scope finished.
    const handedOn = Math.max(0, ...(finishes.get(scope) ?? []).filter((t) => t < end || (!finished && t <= end)));
    const from = Math.max(ack.time, phase.time, handedOn);
    const deadline = from + boundMs;
    if (finished) {
      if (done.time > deadline) violations.push(violation(INVARIANT, `job ${id} (#${job.invoke.index}) finished at time ${done.time}, past its deadline ${deadline} (bound ${boundMs} ms)`, [phase.index, job.invoke.index, done.index], scope));
      continue;
    }
    const message = `job ${id} on scope ${scope} (#${job.invoke.index}, accepted #${ack.index}) was never finished: the run ended at time ${end}`;
    if (end >= deadline) violations.push(violation(INVARIANT, `${message}, ${boundMs} ms or more after its scope was last handed on or the ${phase.f} (#${phase.index})`, [phase.index, job.invoke.index, ack.index, ...(done === null ? [] : [done.index])], scope));
    else undecided.push(violation(INVARIANT, `${message}, before its deadline ${deadline}`, [job.invoke.index], scope));
  }
  if (violations.length > 0) return { valid: false, violations };
  return undecided.length > 0 ? { valid: 'unknown', violations: undecided } : { valid: true, violations: [] };
}

/** Per job whose FinishJob answer was lost, the first later ListJobs answer that no longer lists it. */
function finishedUnconfirmed(operations: ReadonlyArray<Operation>): Map<string, OpEvent> {
  const lost = new Map<string, number>();
  for (const { op, command } of storeOps(operations, 'FinishJob')) {
    if (op.completion?.type === 'info' && !lost.has(command.jobId)) lost.set(command.jobId, op.completion.time);
  }
  const out = new Map<string, OpEvent>();
  if (lost.size === 0) return out;
  for (const { op, outcome } of storeOps(operations, 'ListJobs')) {
    if (outcome === null || op.completion === null) continue;
    const listed = new Set(outcome.jobs.map((job) => job.jobId));
    for (const [jobId, time] of lost) if (op.invoke.time > time && !listed.has(jobId) && !out.has(jobId)) out.set(jobId, op.completion);
  }
  return out;
}

/** Two attempts of one job each answered JobFinished, with no image put in place between the answers. */
function finishedTwice(operations: ReadonlyArray<Operation>, rolled: ReadonlyArray<RolledBack>): Violation[] {
  const first = new Map<string, { token: number; op: Operation }>();
  const out: Violation[] = [];
  for (const { op, command, outcome } of storeOps(operations, 'FinishJob')) {
    if (outcome?.kind !== 'JobFinished' || op.completion === null) continue;
    const earlier = first.get(command.jobId);
    if (earlier === undefined) {
      first.set(command.jobId, { token: command.token, op });
      continue;
    }
    if (earlier.token === command.token) continue;
    // The store may have applied the first FinishJob as early as it was sent.
    const from = earlier.op.invoke.time;
    if (rolled.some((r) => from <= r.fault.time && r.fault.time <= op.completion!.time)) {
      first.set(command.jobId, { token: command.token, op });
      continue;
    }
    out.push(violation(INVARIANT, `job ${command.jobId} was finished twice: by the attempt with token ${earlier.token} (#${earlier.op.completion!.index}) and by the one with token ${command.token} (#${op.completion.index})`, [earlier.op.completion!.index, op.completion.index], outcome.job.scope));
  }
  return out;
}
