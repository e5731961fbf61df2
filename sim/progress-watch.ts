// The controllers' progress, watched in every simulated run (seed 000 §2, §318: an operation is
// carried out step by step; §287: after a crash the next incarnation takes up what the last one
// left). Safety rules hold of a controller that does nothing, so the simulator also asks that the
// work is done, from what it sees of its own nodes (no history record, no trace hash changes):
// - no stall: when the run ends, a controller that is up and holds operations (one in progress,
//   one its journal says a past incarnation left, or queued) has a fiber that will go on with
//   them. One that holds work and runs nothing (never took its queue up, dropped a job without
//   ending it, or did not take up what its last incarnation left) would hold it for ever;
// - no empty job: a job a controller took up and finished sent a store call (one the store lacks
//   included: it records nothing) or left an operation of the node in the history between its
//   start and the node's next job (a provider call, an inspection, a decision such as a group
//   submission or a refused scope), unless its incarnation crashed while it ran (the next one may
//   end it unseen: it inherits nothing, seed 001 §13).
// A job still running when the run ends is not judged by the second rule: it may not have got
// that far. Either finding is `controller-progress`, naming the node and the operation. Under a
// coordination plan the operations go to the scheduler as jobs, not to the nodes' queues: the
// scheduler's jobs are judged by `jobs-complete` instead, and these rules see no work there.

import type { HistoryEvent } from '../model/history.ts';
import type { Violation } from '../model/verdict.ts';
import type { Journal, Node } from './sim-node.ts';

export const CONTROLLER_PROGRESS = 'controller-progress';

interface Job {
  readonly node: Node;
  readonly journal: Journal;
  /** The history index when its first fiber started, and when the node's next job did (null: none did). */
  readonly from: number;
  to: number | null;
  /** It sent a store call (recorded in the history only when the store has the command). */
  called: boolean;
  crashed: boolean;
}

export class ProgressWatch {
  private readonly jobs = new Map<Journal, Job>();
  /** Each node's latest job. */
  private readonly latest = new Map<Node, Job>();

  /** A fiber starts on `node` at history index `at`: the job it holds is watched from its first fiber on. */
  spawned(node: Node, at: number): void {
    const journal = node.journal;
    if (journal === null || this.jobs.has(journal)) return;
    const job: Job = { node, journal, from: at, to: null, called: false, crashed: false };
    const previous = this.latest.get(node);
    if (previous !== undefined) previous.to = at;
    this.jobs.set(journal, job);
    this.latest.set(node, job);
  }

  /** `node` sends a store call: the job it holds did some work. */
  called(node: Node): void {
    const job = node.journal === null ? undefined : this.jobs.get(node.journal);
    if (job !== undefined) job.called = true;
  }

  /**
   * `node`'s incarnation ends at history index `at`: the job it held is excused from the empty-job
   * rule, also one its incarnation took up without a fiber of its own (a retry after recovery).
   */
  retired(node: Node, at: number): void {
    if (node.journal === null) return;
    this.spawned(node, at);
    this.jobs.get(node.journal)!.crashed = true;
  }

  /** The findings once the run is over, for the controllers `nodes`. */
  violations(nodes: ReadonlyArray<Node>, events: ReadonlyArray<HistoryEvent>): ReadonlyArray<Violation> {
    const found: Violation[] = [];
    for (const node of nodes) {
      const holds = node.busy || node.journal !== null || node.pending.length > 0;
      if (node.down || !holds || node.fibers.some(goesOn)) continue;
      const what = [...(node.journal === null ? [] : [`${node.journal.op.id} in progress`]), `${node.pending.length} queued operation(s)`].join(' and ');
      const message = `${node.proc} holds ${what} and runs nothing that would carry them out: they are never done`;
      found.push({ invariant: CONTROLLER_PROGRESS, message });
    }
    for (const job of this.jobs.values()) {
      if (job.called || job.crashed || job.node.journal === job.journal) continue;
      if (workedBetween(events, job.node.name, job.from, job.to ?? events.length)) continue;
      const message = `${job.node.name} ended ${job.journal.op.id} (${job.journal.op.workload}) without a call or an operation of its own: the operation was never carried out`;
      found.push({ invariant: CONTROLLER_PROGRESS, message });
    }
    return found.slice(0, 5);
  }
}

/** Whether an operation of a process of node `name` was recorded at an index from `from` to before `to`. */
function workedBetween(events: ReadonlyArray<HistoryEvent>, name: string, from: number, to: number): boolean {
  const prefix = `${name}#`;
  for (let i = from; i < to; i++) {
    const e = events[i]!;
    if (e.type !== 'fault' && e.type !== 'truth' && e.process.startsWith(prefix)) return true;
  }
  return false;
}

/** Whether a fiber will still run: not yet started, or parked until something wakes it. */
function goesOn(fiber: Node['fibers'][number]): boolean {
  return !fiber.dead && (!fiber.started || fiber.resume !== null);
}
