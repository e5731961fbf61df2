// list-omits-leased — seed 001 §84–§85, §88, §259. ListJobs selects only the jobs whose status is
// eligible. A job whose attempt died with its process stays leased to a lease that no longer
// lives; no leader ever sees it again, and it never runs.

import { modelMutant } from './model-store.ts';

export const listOmitsLeased = modelMutant('list-omits-leased', ['ListJobs'], (state, command, now, reference) => {
  const listed = reference(state, command, now);
  return { state: listed.state, outcome: { kind: 'JobList', jobs: listed.outcome.jobs.filter((job) => job.status === 'eligible') } };
});
