// jobs-complete (seed 001 §84–§88, §259: a new leader rebuilds its view from the database and
// takes back the work a failed leader's attempts left; §283: after failover no job is lost; §93:
// the jobs table is written through the store). Two rules over the jobs the store accepted (a
// SubmitJob answered JobSubmitted or JobExists, or a ListJobs listed it; a refused submission is a
// violation of its own):
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
import { finishedTwice, finishedUnconfirmed, heldJobs, refusedSubmissions, rollbacks } from './job-records.ts';
import { controllerOps, faultsOf, pairOperations, requireNumber, requireString, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'jobs-complete';

/** One accepted job the liveness rule judges: when it finished (null: not yet) and by when it must. */
interface OwedJob {
  readonly job: Operation;
  readonly id: string;
  readonly scope: string;
  readonly ack: OpEvent;
  readonly done: OpEvent | null;
  readonly finished: boolean;
  readonly end: number;
  readonly deadline: number;
}

/** The accepted jobs that are owed once faults heal, each with its deadline; empty before the liveness phase. */
function owedJobs(history: History, operations: ReadonlyArray<Operation>, phase: FaultEvent, boundMs: number): OwedJob[] {
  const rolled = rollbacks(history);
  const held = heldJobs(operations);
  const unconfirmed = finishedUnconfirmed(operations);
  const jobs = controllerOps(operations, 'job');
  const doneOf = (job: Operation, id: string): OpEvent | null => (job.completion?.type === 'ok' ? job.completion : (unconfirmed.get(id) ?? job.completion));
  // When each scope was last handed on: the times jobs on it finished.
  const finishes = new Map<string, number[]>();
  for (const job of jobs) {
    const done = doneOf(job, requireString(job.invoke.value, 'jobId', job.invoke.index));
    if (done?.type !== 'ok') continue;
    const scope = requireString(job.invoke.value, 'scope', job.invoke.index);
    finishes.set(scope, [...(finishes.get(scope) ?? []), done.time]);
  }
  const owed: OwedJob[] = [];
  for (const job of jobs) {
    const id = requireString(job.invoke.value, 'jobId', job.invoke.index);
    const scope = requireString(job.invoke.value, 'scope', job.invoke.index);
    const since = held.get(id);
    if (since === undefined) continue;
    const ack = since.known;
    // The row was written somewhere between the SubmitJob's sending and the store's first showing it.
    if (rolled.some((r) => since.written <= r.fault.time && r.imageTime <= ack.time)) continue;
    const done = doneOf(job, id);
    const finished = done !== null && done.type === 'ok';
    const end = done?.time ?? history.at(-1)?.time ?? phase.time;
    // A job waits its turn behind the jobs before it on its scope: its bound runs from the later of
    // its acceptance, the phase start and the last time another job on its scope finished.
    const handedOn = Math.max(0, ...(finishes.get(scope) ?? []).filter((t) => t < end || (!finished && t <= end)));
    const deadline = Math.max(ack.time, phase.time, handedOn) + boundMs;
    owed.push({ job, id, scope, ack, done, finished, end, deadline });
  }
  return owed;
}

/**
 * The latest deadline of a job that is owed and not finished in `history` so far, or null: a run
 * that would otherwise end before it drains past its horizon until then (sim/engine.ts), so the
 * rule can decide instead of leaving the job undecided.
 */
export function owedUntil(history: History): number | null {
  const phase = faultsOf(history, ['liveness-phase'])[0];
  if (phase === undefined) return null;
  const boundMs = requireNumber(phase.value, 'boundMs', phase.index);
  let until: number | null = null;
  for (const owed of owedJobs(history, pairOperations(history), phase, boundMs)) {
    if (!owed.finished && (until === null || owed.deadline > until)) until = owed.deadline;
  }
  return until;
}

export function jobsComplete(history: History): Verdict {
  const operations = pairOperations(history);
  const violations = [...refusedSubmissions(operations), ...finishedTwice(operations, rollbacks(history))];
  const phase = faultsOf(history, ['liveness-phase'])[0];
  if (phase === undefined) return verdictOf(violations);
  const boundMs = requireNumber(phase.value, 'boundMs', phase.index);
  const undecided: Violation[] = [];
  for (const { job, id, scope, ack, done, finished, end, deadline } of owedJobs(history, operations, phase, boundMs)) {
    if (finished && done !== null) {
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
