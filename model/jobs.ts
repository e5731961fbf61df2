// The jobs table (seed 001 §36–§41, §84–§85, §93): durable rows that every scheduler leader reads
// and none keeps only in memory. A dispatch creates the job's lease and marks the job leased in the
// same transaction, under the role guard, so no leader's crash can leave a job half-dispatched: a
// job is eligible, leased (its latest attempt holds the token) or done. A leased job whose lease is
// no longer live is dispatched again (its attempt died with its process: §84–§85, §88); only the latest
// attempt may finish the job or give it back.

import type { AcquireCommand, DispatchJobCommand, FinishJobCommand, ReturnJobCommand, SubmitJobCommand } from './commands.ts';
import { acquire } from './lease.ts';
import type { AcquireResult, DispatchJobResult, JobAttemptResult, JobRow, ListJobsResult, SubmitJobResult } from './outcomes.ts';
import { mapWith } from './persistent.ts';
import { liveLease, type ModelState, type Transition } from './state.ts';
import { isValidId } from './validation.ts';

export function submitJob(state: ModelState, command: SubmitJobCommand): Transition<SubmitJobResult> {
  if (!isValidId(command.jobId) || !isValidId(command.scope)) return { state, outcome: { kind: 'Rejected', reason: 'invalid-argument' } };
  const existing = state.jobs.get(command.jobId);
  // A retried submission (its first reply lost) finds its row: submitting is idempotent per job id.
  if (existing !== undefined) return { state, outcome: { kind: 'JobExists', job: existing } };
  const job: JobRow = { jobId: command.jobId, scope: command.scope, status: 'eligible', attemptToken: 0, attempts: 0, seq: state.jobs.size + 1 };
  return { state: { ...state, jobs: mapWith(state.jobs, job.jobId, job) }, outcome: { kind: 'JobSubmitted', job } };
}

/** The Acquire rule a dispatch creates its lease with (a store mutant's broken Acquire breaks its dispatches too). */
export type AcquireRule = (state: ModelState, command: AcquireCommand, now: number) => Transition<AcquireResult>;

export function dispatchJob(state: ModelState, command: DispatchJobCommand, now: number, acquireRule: AcquireRule = acquire): Transition<DispatchJobResult> {
  const job = state.jobs.get(command.jobId);
  if (job === undefined || job.status === 'done') return { state, outcome: { kind: 'NotDispatchable', job: job ?? null } };
  const base = { kind: 'Acquire' as const, scope: job.scope, holder: command.holder, ttlMs: command.ttlMs };
  const acquired = acquireRule(state, command.guard === undefined ? base : { ...base, guard: command.guard }, now);
  if (acquired.outcome.kind !== 'Acquired') return acquired as Transition<DispatchJobResult>;
  const lease = acquired.outcome.lease;
  const leased: JobRow = { ...job, status: 'leased', attemptToken: lease.token, attempts: job.attempts + 1 };
  return { state: { ...acquired.state, jobs: mapWith(acquired.state.jobs, job.jobId, leased) }, outcome: { kind: 'JobDispatched', job: leased, lease } };
}

/** FinishJob and ReturnJob: only the job's latest attempt may end it; a retried FinishJob of that attempt is answered again. */
export function endAttempt(state: ModelState, command: FinishJobCommand | ReturnJobCommand): Transition<JobAttemptResult> {
  const job = state.jobs.get(command.jobId);
  const current = job !== undefined && job.attemptToken === command.token && job.attemptToken > 0;
  if (command.kind === 'FinishJob' && current && job.status === 'done') return { state, outcome: { kind: 'JobFinished', job } };
  if (!current || job.status !== 'leased') return { state, outcome: { kind: 'StaleAttempt', job: job ?? null } };
  const ended: JobRow = { ...job, status: command.kind === 'FinishJob' ? 'done' : 'eligible' };
  const kind = command.kind === 'FinishJob' ? 'JobFinished' : 'JobReturned';
  return { state: { ...state, jobs: mapWith(state.jobs, job.jobId, ended) }, outcome: { kind, job: ended } };
}

/**
 * The unfinished jobs in submission order, each with whether its latest attempt's lease is live:
 * a leased job whose attempt's lease is gone is the work a dead attempt left (seed 001 §84–§85, §88).
 */
export function listJobs(state: ModelState, now: number): Transition<ListJobsResult> {
  const jobs = [...state.jobs.values()]
    .filter((job) => job.status !== 'done')
    .sort((a, b) => a.seq - b.seq)
    .map((job) => ({ ...job, attemptLive: job.status === 'leased' && liveLease(state, job.scope, now)?.token === job.attemptToken }));
  return { state, outcome: { kind: 'JobList', jobs } };
}
