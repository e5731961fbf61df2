// finish-after-return — seed 001 §76–§77 (an attempt's completion is accepted while its lease is
// valid), §84–§85 (a leader rescans the unfinished jobs). FinishJob matches the job's attempt token but
// not its status (`UPDATE jobs SET status = 'done' WHERE job_id = $1 AND attempt_token = $2`,
// without `AND status = 'leased'`): an attempt that gave its job back (ReturnJob, say from its
// timeout path) can still finish it from its completion path, and the job is marked done though
// the attempt gave up its work and no later attempt will run it. Only the job's current attempt
// token reaches the bug, twice (to give the job back, then to finish it): no workload of the
// simulator finishes an attempt it returned, so the command-level check alone catches it.

import type { JobRow } from '../../model/outcomes.ts';
import { mapWith } from '../../model/persistent.ts';
import { modelMutant } from './model-store.ts';

export const finishAfterReturn = modelMutant('finish-after-return', ['FinishJob'], (state, command, now, reference) => {
  const job = state.jobs.get(command.jobId);
  if (job === undefined || job.status !== 'eligible' || job.attemptToken === 0 || job.attemptToken !== command.token) return reference(state, command, now);
  const done: JobRow = { ...job, status: 'done' };
  return { state: { ...state, jobs: mapWith(state.jobs, job.jobId, done) }, outcome: { kind: 'JobFinished', job: done } };
});
