// The jobs table in SQL (seed 001 §36–§41, §84–§85, §93), deciding exactly as model/jobs.ts does.
// Each function runs inside one transaction (transaction.ts).
//
// Locks: SubmitJob takes the job_seq counter row first (SELECT ... FOR UPDATE), which serializes
// every submitter, so the existence check after it is exact and seq is the next submission number
// with no gap (the counter equals the number of job rows: jobs are never deleted). DispatchJob,
// FinishJob and ReturnJob lock the job row first and decide on what they read after the lock.
// DispatchJob then creates the lease through acquire() of lease-commands.ts (role row, then scope
// row) and marks the job leased in the same transaction, so a dispatch is never half done (seed 001 §93).
// Job row before role and scope is safe: no command locks a job row after a role or scope row.

import type { AcquireCommand, DispatchJobCommand, FinishJobCommand, ReturnJobCommand, SubmitJobCommand } from '../../model/commands.ts';
import type { DispatchJobResult, JobAttemptResult, JobRow, ListJobsResult, SubmitJobResult } from '../../model/outcomes.ts';
import { isValidId } from '../../model/validation.ts';
import { acquire, rejected } from './lease-commands.ts';
import { decodeText, encodeText } from './text-codec.ts';
import type { Tx } from './transaction.ts';

export interface JobSqlRow {
  job_id: string;
  scope: string;
  status: JobRow['status'];
  attempt_token: number;
  attempts: number;
  seq: number;
}

export const JOB_COLUMNS = 'job_id, scope, status, attempt_token, attempts, seq';

export function jobOf(row: JobSqlRow): JobRow {
  return {
    jobId: decodeText(row.job_id),
    scope: decodeText(row.scope),
    status: row.status,
    attemptToken: row.attempt_token,
    attempts: row.attempts,
    seq: row.seq,
  };
}

/** The job's row, locked for the rest of the transaction; null when there is none. */
async function lockJob(tx: Tx, jobId: string): Promise<JobRow | null> {
  const [row] = await tx.query<JobSqlRow>(`SELECT ${JOB_COLUMNS} FROM job WHERE job_id = $1 FOR UPDATE`, [encodeText(jobId)]);
  return row === undefined ? null : jobOf(row);
}

/** Write the job's status and attempt (nothing later in the transaction reads it: sent with COMMIT). */
export function writeJob(tx: Tx, job: JobRow): void {
  tx.defer('UPDATE job SET status = $2, attempt_token = $3, attempts = $4 WHERE job_id = $1', [
    encodeText(job.jobId),
    job.status,
    job.attemptToken,
    job.attempts,
  ]);
}

export async function submitJob(tx: Tx, command: SubmitJobCommand): Promise<SubmitJobResult> {
  if (!isValidId(command.jobId) || !isValidId(command.scope)) return rejected('invalid-argument');
  const id = encodeText(command.jobId);
  // Pipelined: the read is a statement of its own after the counter lock, so it sees every
  // submission committed before the lock was granted.
  const [[counter], [existing]] = await Promise.all([
    tx.query<{ value: number }>("SELECT value FROM counter WHERE name = 'job_seq' FOR UPDATE"),
    tx.query<JobSqlRow>(`SELECT ${JOB_COLUMNS} FROM job WHERE job_id = $1`, [id]),
  ]);
  // A retried submission (its first reply lost) finds its row: submitting is idempotent per job id.
  if (existing !== undefined) return { kind: 'JobExists', job: jobOf(existing) };
  const job: JobRow = { jobId: command.jobId, scope: command.scope, status: 'eligible', attemptToken: 0, attempts: 0, seq: counter!.value + 1 };
  tx.defer(
    `WITH c AS (UPDATE counter SET value = $3 WHERE name = 'job_seq')
     INSERT INTO job (job_id, scope, status, attempt_token, attempts, seq) VALUES ($1, $2, 'eligible', 0, 0, $3)`,
    [id, encodeText(command.scope), job.seq],
  );
  return { kind: 'JobSubmitted', job };
}

export async function dispatchJob(tx: Tx, command: DispatchJobCommand): Promise<DispatchJobResult> {
  const job = await lockJob(tx, command.jobId);
  if (job === null || job.status === 'done') return { kind: 'NotDispatchable', job };
  const base: AcquireCommand = { kind: 'Acquire', scope: job.scope, holder: command.holder, ttlMs: command.ttlMs };
  // The guard is checked (and a newer epoch stored) by acquire, whatever it then decides.
  const acquired = await acquire(tx, command.guard === undefined ? base : { ...base, guard: command.guard });
  if (acquired.kind !== 'Acquired') return acquired;
  const lease = acquired.lease;
  const leased: JobRow = { ...job, status: 'leased', attemptToken: lease.token, attempts: job.attempts + 1 };
  writeJob(tx, leased);
  return { kind: 'JobDispatched', job: leased, lease };
}

/** FinishJob and ReturnJob: only the job's latest attempt may end it; a retried FinishJob of that attempt is answered again. */
export async function endAttempt(tx: Tx, command: FinishJobCommand | ReturnJobCommand): Promise<JobAttemptResult> {
  const job = await lockJob(tx, command.jobId);
  const current = job !== null && job.attemptToken === command.token && job.attemptToken > 0;
  if (command.kind === 'FinishJob' && current && job.status === 'done') return { kind: 'JobFinished', job };
  if (!current || job.status !== 'leased') return { kind: 'StaleAttempt', job };
  const ended: JobRow = { ...job, status: command.kind === 'FinishJob' ? 'done' : 'eligible' };
  writeJob(tx, ended);
  return { kind: command.kind === 'FinishJob' ? 'JobFinished' : 'JobReturned', job: ended };
}

/** The unfinished jobs in submission order, each with whether its latest attempt's lease is live at store time (read-only: one REPEATABLE READ snapshot). */
export async function listJobs(tx: Tx): Promise<ListJobsResult> {
  const now = await tx.now();
  const rows = await tx.query<JobSqlRow & { attempt_live: boolean }>(
    `SELECT j.job_id, j.scope, j.status, j.attempt_token, j.attempts, j.seq,
            (j.status = 'leased' AND l.token IS NOT NULL) AS attempt_live
       FROM job j LEFT JOIN lease l ON l.scope = j.scope AND l.token = j.attempt_token AND l.expires_at > $1
      WHERE j.status <> 'done' ORDER BY j.seq`,
    [now],
  );
  return { kind: 'JobList', jobs: rows.map((row) => ({ ...jobOf(row), attemptLive: row.attempt_live })) };
}
