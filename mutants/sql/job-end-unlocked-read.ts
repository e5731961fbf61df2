// job-end-unlocked-read — seed 001 §84–§85 (the jobs table: a job's latest attempt alone may end
// it), §93 (dispatch and its lease in one transaction), 000 §72 ("SELECT ... FOR UPDATE where
// appropriate"). Source: seed 003's jobs whose attempts were ended twice; the classic read, decide,
// write without a row lock.
//
// The real FinishJob and ReturnJob lock the job's row (SELECT ... FOR UPDATE) and decide on what
// they read under the lock (job-commands.ts). This one reads the row without the lock. Run alone,
// it decides as the real store does. A FinishJob and a ReturnJob of the same attempt running at
// once both read the job leased by that attempt, so both are told they ended it: the job is
// finished and returned, and its status is whichever write came last.

import type { FinishJobCommand, ReturnJobCommand } from '../../model/commands.ts';
import type { JobAttemptResult, JobRow } from '../../model/outcomes.ts';
import { JOB_COLUMNS, jobOf, writeJob, type JobSqlRow } from '../../adapters/postgres/job-commands.ts';
import { encodeText } from '../../adapters/postgres/text-codec.ts';
import type { CommandBodies } from '../../adapters/postgres/store.ts';
import type { Tx } from '../../adapters/postgres/transaction.ts';

async function endAttempt(tx: Tx, command: FinishJobCommand | ReturnJobCommand): Promise<JobAttemptResult> {
  // THE BUG: a plain read, no FOR UPDATE: another call may end the same attempt meanwhile.
  const [row] = await tx.query<JobSqlRow>(`SELECT ${JOB_COLUMNS} FROM job WHERE job_id = $1`, [encodeText(command.jobId)]);
  const job = row === undefined ? null : jobOf(row);
  const current = job !== null && job.attemptToken === command.token && job.attemptToken > 0;
  if (command.kind === 'FinishJob' && current && job.status === 'done') return { kind: 'JobFinished', job };
  if (!current || job.status !== 'leased') return { kind: 'StaleAttempt', job };
  const ended: JobRow = { ...job, status: command.kind === 'FinishJob' ? 'done' : 'eligible' };
  writeJob(tx, ended);
  return { kind: command.kind === 'FinishJob' ? 'JobFinished' : 'JobReturned', job: ended };
}

/** The command bodies it replaces. */
export const jobEndUnlockedRead: CommandBodies = {
  FinishJob: (tx, command) => endAttempt(tx, command) as Promise<JobAttemptResult<'JobFinished'>>,
  ReturnJob: (tx, command) => endAttempt(tx, command) as Promise<JobAttemptResult<'JobReturned'>>,
};
