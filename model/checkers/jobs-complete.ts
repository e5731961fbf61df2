// jobs-complete (seed 001 §84–§88, §259: a new leader rebuilds its view from the database and
// reclaims the work a failed leader left half-dispatched; §283: after failover no job is lost): once
// faults heal (the `liveness-phase` fault event), every job submitted to the scheduler finishes
// within `boundMs` of the latest of its submission, the phase start and the last time another job
// on its scope finished (it may wait its turn, but not longer). A job is a `job` operation of its
// own process: ok when an attempt finished it, fail when the run ended first.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { controllerOps, faultsOf, pairOperations, requireNumber, requireString } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'jobs-complete';

export function jobsComplete(history: History): Verdict {
  const phase = faultsOf(history, ['liveness-phase'])[0];
  if (phase === undefined) return verdictOf([]);
  const boundMs = requireNumber(phase.value, 'boundMs', phase.index);
  const jobs = controllerOps(pairOperations(history), 'job');
  // When each scope was last handed on: the times jobs on it finished.
  const finishes = new Map<string, number[]>();
  for (const job of jobs) {
    if (job.completion?.type !== 'ok') continue;
    const scope = requireString(job.invoke.value, 'scope', job.invoke.index);
    finishes.set(scope, [...(finishes.get(scope) ?? []), job.completion.time]);
  }
  const violations: Violation[] = [];
  const undecided: Violation[] = [];
  for (const job of jobs) {
    const id = requireString(job.invoke.value, 'jobId', job.invoke.index);
    const scope = requireString(job.invoke.value, 'scope', job.invoke.index);
    const done = job.completion;
    const finished = done !== null && done.type === 'ok';
    const end = done?.time ?? history.at(-1)?.time ?? phase.time;
    // A job waits its turn behind the jobs before it on its scope: its bound runs from the later of
    // its submission, the phase start and the last time another job on its scope finished.
    const handedOn = Math.max(0, ...(finishes.get(scope) ?? []).filter((t) => t < end || (!finished && t <= end)));
    const from = Math.max(job.invoke.time, phase.time, handedOn);
    const deadline = from + boundMs;
    if (finished) {
      if (done.time > deadline) violations.push(violation(INVARIANT, `job ${id} (#${job.invoke.index}) finished at time ${done.time}, past its deadline ${deadline} (bound ${boundMs} ms)`, [phase.index, job.invoke.index, done.index], scope));
      continue;
    }
    const message = `job ${id} on scope ${scope} (#${job.invoke.index}) was never finished: the run ended at time ${end}`;
    if (end >= deadline) violations.push(violation(INVARIANT, `${message}, ${boundMs} ms or more after its scope was last handed on or the ${phase.f} (#${phase.index})`, [phase.index, job.invoke.index, ...(done === null ? [] : [done.index])], scope));
    else undecided.push(violation(INVARIANT, `${message}, before its deadline ${deadline}`, [job.invoke.index], scope));
  }
  if (violations.length > 0) return { valid: false, violations };
  return undecided.length > 0 ? { valid: 'unknown', violations: undecided } : { valid: true, violations: [] };
}
