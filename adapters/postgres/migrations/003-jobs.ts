// Migration 3 of the PostgreSQL store (adapters/postgres/schema.ts): the jobs table (seed 001
// §36–§41, §84–§85, §93), written by SubmitJob, DispatchJob, FinishJob and ReturnJob
// (adapters/postgres/job-commands.ts; the reference is model/jobs.ts).

import type { Migration } from './migration.ts';

export const JOBS: Migration = {
  version: 3,
  description: 'jobs table: submitted, leased and done jobs, in submission order',
  sql: `
-- One row per submitted job, never deleted: a job is eligible, leased (attempt_token is the token
-- of the lease its latest dispatch created) or done. seq is the submission number (from 1, no
-- gaps): it is taken under the job_seq counter row (below), which serializes submitters.
CREATE TABLE job (
  job_id        text    PRIMARY KEY,
  scope         text    NOT NULL,
  status        text    NOT NULL CHECK (status IN ('eligible', 'leased', 'done')),
  attempt_token bigint  NOT NULL CHECK (attempt_token >= 0),
  attempts      integer NOT NULL CHECK (attempts >= 0),
  seq           bigint  NOT NULL UNIQUE
);

-- The submission counter: locked FOR UPDATE by SubmitJob, equal to the number of job rows.
INSERT INTO counter (name, value) VALUES ('job_seq', 0);
`,
};
