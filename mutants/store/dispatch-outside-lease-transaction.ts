// dispatch-outside-lease-transaction — seed 001 §93 (the job is written in the lease-creation
// transaction). DispatchJob creates the job's lease in one transaction and marks the job in a
// second one, which is lost when the first commits and the second does not: here the second never
// lands. The job stays eligible without its attempt's token; the attempt can neither finish nor
// return it, and every later dispatch runs it again.

import { modelMutant } from './model-store.ts';

export const dispatchOutsideLeaseTransaction = modelMutant('dispatch-outside-lease-transaction', ['DispatchJob'], (state, command, now, reference) => {
  const dispatched = reference(state, command, now);
  if (dispatched.outcome.kind !== 'JobDispatched') return dispatched;
  const job = state.jobs.get(command.jobId)!;
  // The lease's transaction committed; the job row's did not.
  return { state: { ...dispatched.state, jobs: state.jobs }, outcome: { ...dispatched.outcome, job: { ...dispatched.outcome.job, status: job.status, attemptToken: job.attemptToken, attempts: job.attempts } } };
});
