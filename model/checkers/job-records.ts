// What a history shows of the jobs table (seed 001 §84–§85, §93; model/jobs.ts), for jobs-complete:
// which jobs the store holds and since when, which images a failover or restore put back, which
// finishes it acknowledged, and which submissions it refused.

import type { FaultEvent, History, OpEvent } from '../history.ts';
import type { Violation } from '../verdict.ts';
import { faultsOf, storeOps, type Operation } from './operations.ts';
import { violation } from './violations.ts';

const INVARIANT = 'jobs-complete';

/**
 * With real faults the record names no image: the replica or backup is taken as of the prepare
 * step (the cut of the replication link, the backup) or the configured age, less this much, for
 * commits the asynchronous replication had not yet carried when the link was cut.
 */
const REAL_REPLICATION_SLACK_MS = 1_000;

/** A failover or restore that replaced the store's image: the window [imageTime, fault.time] it rolled back. */
export interface RolledBack {
  readonly fault: FaultEvent;
  readonly imageTime: number;
}

export function rollbacks(history: History): ReadonlyArray<RolledBack> {
  const out: RolledBack[] = [];
  let prepared: FaultEvent | null = null;
  for (const fault of faultsOf(history, ['db-failover', 'db-restore'])) {
    const value = fault.value as Readonly<Record<string, unknown>>;
    if (value['phase'] === 'cut' || value['phase'] === 'backup') prepared = fault;
    if (value['skipped'] === true || value['phase'] !== undefined) continue;
    if (typeof value['imageTime'] === 'number') {
      out.push({ fault, imageTime: value['imageTime'] });
      continue;
    }
    const age = typeof value['lagMs'] === 'number' ? value['lagMs'] : typeof value['snapshotAgeMs'] === 'number' ? value['snapshotAgeMs'] : 0;
    const taken = prepared !== null && prepared.f === fault.f ? Math.min(prepared.time, fault.time - age) : fault.time - age;
    out.push({ fault, imageTime: taken - REAL_REPLICATION_SLACK_MS });
  }
  return out;
}

/** Since when the store holds a job: `written` is the earliest its row can have been written, `known` the event that first showed it. */
export interface Held {
  readonly written: number;
  readonly known: OpEvent;
}

/** When each job's first SubmitJob was sent: its row cannot have been written earlier. */
function firstSent(operations: ReadonlyArray<Operation>): ReadonlyMap<string, number> {
  const sent = new Map<string, number>();
  for (const { op, command } of storeOps(operations, 'SubmitJob')) if (!sent.has(command.jobId)) sent.set(command.jobId, op.invoke.time);
  return sent;
}

/** Per job, the first SubmitJob the store acknowledged (JobSubmitted or JobExists), with when its first submission was sent. */
export function acknowledgedSubmissions(operations: ReadonlyArray<Operation>): ReadonlyMap<string, Held> {
  const sent = firstSent(operations);
  const acknowledged = new Map<string, Held>();
  for (const { op, command, outcome } of storeOps(operations, 'SubmitJob')) {
    const yes = outcome?.kind === 'JobSubmitted' || outcome?.kind === 'JobExists';
    if (yes && op.completion !== null && !acknowledged.has(command.jobId)) acknowledged.set(command.jobId, { written: sent.get(command.jobId)!, known: op.completion });
  }
  return acknowledged;
}

/** The jobs the store holds: acknowledged by a SubmitJob or listed by a ListJobs. */
export function heldJobs(operations: ReadonlyArray<Operation>): ReadonlyMap<string, Held> {
  const held = new Map(acknowledgedSubmissions(operations));
  const sent = firstSent(operations);
  for (const { op, outcome } of storeOps(operations, 'ListJobs')) {
    if (outcome === null || op.completion === null) continue;
    for (const job of outcome.jobs) {
      const known = held.get(job.jobId);
      if (known === undefined || known.known.time > op.completion.time) held.set(job.jobId, { written: sent.get(job.jobId) ?? op.invoke.time, known: op.completion });
    }
  }
  return held;
}

/** A SubmitJob the store refused: the API sends only valid ids (model/validation.ts), so the store broke its rule. */
export function refusedSubmissions(operations: ReadonlyArray<Operation>): Violation[] {
  return storeOps(operations, 'SubmitJob')
    .filter(({ outcome }) => outcome?.kind === 'Rejected')
    .map(({ op, command }) => violation(INVARIANT, `the store refused job ${command.jobId}'s submission (#${op.completion!.index}): ${JSON.stringify(op.completion!.value)}`, [op.invoke.index, op.completion!.index], command.scope));
}

/** Per job whose FinishJob answer was lost, the first later ListJobs answer that no longer lists it. */
export function finishedUnconfirmed(operations: ReadonlyArray<Operation>): Map<string, OpEvent> {
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

/**
 * Two attempts of one job each answered JobFinished, unless an image taken before the first
 * answer was put in place between the two (the store may have applied the first FinishJob as
 * early as it was sent).
 */
export function finishedTwice(operations: ReadonlyArray<Operation>, rolled: ReadonlyArray<RolledBack>): Violation[] {
  const first = new Map<string, { token: number; op: Operation }>();
  const out: Violation[] = [];
  for (const { op, command, outcome } of storeOps(operations, 'FinishJob')) {
    if (outcome?.kind !== 'JobFinished' || op.completion === null) continue;
    const earlier = first.get(command.jobId);
    if (earlier === undefined || earlier.token === command.token) {
      if (earlier === undefined) first.set(command.jobId, { token: command.token, op });
      continue;
    }
    const answered = earlier.op.completion!;
    if (rolled.some((r) => earlier.op.invoke.time <= r.fault.time && r.fault.time <= op.completion!.time && r.imageTime < answered.time)) {
      first.set(command.jobId, { token: command.token, op });
      continue;
    }
    out.push(violation(INVARIANT, `job ${command.jobId} was finished twice: by the attempt with token ${earlier.token} (#${answered.index}) and by the one with token ${command.token} (#${op.completion.index})`, [answered.index, op.completion.index], outcome.job.scope));
  }
  return out;
}
