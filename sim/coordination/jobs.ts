// The jobs of a coordinated run (seed 001 §36–§41, §84–§85, §93). Their durable rows are in the
// store (model/jobs.ts: SubmitJob, DispatchJob, FinishJob, ReturnJob, ListJobs), written and read
// through the port, so a database failover or restore moves them with everything else and a new
// leader rebuilds its queue from them. What this file keeps is the run's side: the API daemon that
// takes each job and submits it, the job's payload (the planned operation: what a row's payload
// column would hold), and the history.
//
// Each job is a `job` operation of its own process: invoked when the API takes it, ok when the
// store first answered JobFinished for it, fail when the run ended first. Whether the store
// accepted it is the SubmitJob store operation's answer; the `jobs-complete` checker judges only
// accepted jobs.

import type { JobRow } from '../../model/outcomes.ts';
import type { Fiber, Node, Sim } from '../engine.ts';
import type { OpSpec } from '../plan.ts';

/** How long an API daemon waits before it submits a job again after the store was unavailable (local ms). */
const SUBMIT_RETRY_MS = 100;

export class JobTable {
  /** Each job's payload, by job id: read by whichever leader dispatches it. */
  private readonly payloads = new Map<string, OpSpec>();
  /** Jobs the store has answered JobFinished for at least once. */
  private readonly finished = new Set<string>();
  /** Jobs the store has acknowledged (JobSubmitted or JobExists). */
  private readonly accepted = new Set<string>();
  /** Aggregate versions last seen (a cache: StaleVersion corrects it). */
  readonly versions = new Map<string, number>();
  /** Told of each job event the store acknowledged (accepted, finished): the agents' event stream (agents.ts). */
  private listener: (() => void) | null = null;

  constructor(private readonly sim: Sim) {}

  listen(listener: () => void): void {
    this.listener = listener;
  }

  payload(jobId: string): OpSpec | undefined {
    return this.payloads.get(jobId);
  }

  /**
   * The API takes a job on `node` (or, if that daemon is down, on another that is up: §114) and
   * submits it until the store acknowledges it. A daemon that dies first takes the submission
   * with it: a job the store never acknowledged need not run.
   */
  submit(op: OpSpec, node: Node): void {
    this.payloads.set(op.id, op);
    this.sim.history.op(this.sim.now, jobProcess(op.id), 'invoke', 'job', { jobId: op.id, scope: op.scope });
    const api = node.down ? this.sim.controllers.find((n) => !n.down) : node;
    if (api === undefined) return;
    this.sim.spawn(api, `${api.proc}:submit:${op.id}`, (fiber) => this.submitFrom(fiber, op));
  }

  private async submitFrom(fiber: Fiber, op: OpSpec): Promise<void> {
    for (;;) {
      const reply = await this.sim.call(fiber, { kind: 'SubmitJob', jobId: op.id, scope: op.scope });
      if (reply?.kind === 'JobSubmitted' || reply?.kind === 'JobExists') {
        this.accepted.add(op.id);
        this.listener?.();
        return;
      }
      if (reply !== null) return;
      await this.sim.sleepLocal(fiber, SUBMIT_RETRY_MS);
    }
  }

  /**
   * Every job taken on `scope`, in submission order: what a provider's own record of the operations
   * asked of it on the scope names, which a reopening reads (the simulated provider answers by
   * effect id, so it is asked job by job). A restore may have erased some of their rows.
   */
  takenOn(scope: string): ReadonlyArray<string> {
    return [...this.payloads.values()].filter((op) => op.scope === scope).map((op) => op.id);
  }

  /** The store answered JobFinished: the first answer for a job records it done. */
  finishedBy(job: JobRow, token: number): void {
    if (this.finished.has(job.jobId)) return;
    this.finished.add(job.jobId);
    this.sim.history.op(this.sim.now, jobProcess(job.jobId), 'ok', 'job', { jobId: job.jobId, token });
    this.listener?.();
  }

  finish(endMs: number): void {
    for (const id of this.payloads.keys()) {
      if (this.finished.has(id)) continue;
      this.sim.history.op(endMs, jobProcess(id), 'fail', 'job', { jobId: id, unfinished: this.accepted.has(id) ? 'accepted' : 'not-acknowledged' });
    }
  }
}

function jobProcess(jobId: string): string {
  return `job:${jobId}`;
}
