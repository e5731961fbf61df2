// Workflow concurrency groups in every mode (§10–§17, §115–§121): the group decision comes from the
// pure model (model/concurrency-group.ts); exclusivity inside a group is a lease like any other.

import { complete, emptyGroup, submit } from '../model/concurrency-group.ts';
import { WAIT_POLL_MS, world, type HeldLease, type RunningJob } from './controller-world.ts';
import { runEffect } from './effect-protocol.ts';
import type { Fiber, Journal, Node, Sim } from './engine.ts';
import { obtainLease, release, startHeartbeat } from './lease-protocol.ts';
import { beginRun, handlerReturned, recordCause } from './handler-run.ts';
import type { OpSpec } from './plan.ts';
import { recordCancel } from './workloads.ts';

/** Workflow concurrency groups in every mode (§10–§17, §119–§121). */
export async function groupJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  const spec = op.group!;
  const w = world(sim);
  const runId = runIdOf(j);
  // A group service that ignores modes (a broken policy) runs Queue and RejectNew groups as AllowParallel.
  const mode = sim.policy.enforceGroupModes || (spec.mode !== 'Queue' && spec.mode !== 'RejectNew') ? spec.mode : 'AllowParallel';
  const state = w.groups.get(spec.group) ?? emptyGroup(mode);
  // The run was triggered when the plan admitted it; its controller may reach the group later.
  const admittedAt = admissionOf(sim, op);
  // A group service that orders runs by arrival (a broken policy) lets a late old run win.
  const ordered = sim.policy.supersedeByAdmission ? admittedAt : sim.now;
  const submitted = submit(state, { runId, supersedable: spec.supersedable, admittedAt: ordered });
  w.groups.set(spec.group, submitted.group);
  const process = fiber.node.proc;
  sim.history.op(sim.now, process, 'invoke', 'group-submit', { group: spec.group, runId, mode: spec.mode, supersedable: spec.supersedable, admittedAt });
  sim.history.op(sim.now, process, 'ok', 'group-submit', submitted.decision);
  const decision = submitted.decision;
  if (decision.kind === 'Rejected' || decision.kind === 'Superseded') return;
  if (decision.kind === 'CancelRefused') {
    if (!sim.policy.cancelNonSupersedable) return;
    for (const victim of decision.protectedRunIds) cancelRun(sim, process, fiber.node, spec, victim, false);
    return;
  }
  if (decision.kind === 'Superseding') for (const victim of decision.cancelled) cancelRun(sim, process, fiber.node, spec, victim, true);
  if (decision.kind === 'Started') w.started.add(runId);
  // Queued (or superseding): wait until the group starts this run, or a newer run supersedes it.
  const deadline = sim.local(fiber.node) + sim.plan.waitTimeoutMs * 4;
  while (!w.started.has(runId)) {
    if (w.superseded.has(runId)) {
      w.runs.delete(runId);
      return;
    }
    if (w.started.has(runId)) break;
    if (sim.local(fiber.node) >= deadline) return;
    await sim.sleepLocal(fiber, WAIT_POLL_MS);
  }
  const run: RunningJob = w.runs.get(runId) ?? { op, node: fiber.node, cancelRequested: false, held: null };
  w.runs.set(runId, run);
  // The run holds its group from here until it is done (a crash closes it as unknown).
  const runProcess = `${process}:group`;
  sim.openOp(fiber.node, runProcess, 'group-run', { group: spec.group, runId, mode: spec.mode });
  try {
    if (mode === 'AllowParallel') {
      await sim.sleepLocal(fiber, op.workMs);
      if (!run.cancelRequested) await runEffect(sim, fiber, j, null, run);
      return;
    }
    const lease = await obtainLease(sim, fiber, op, op.scope, true, j.attempt);
    if (lease === null) return;
    const held: HeldLease = { lease, lost: false, released: false };
    run.held = held;
    const handler = beginRun(sim, fiber, [held], run.cancelRequested);
    startHeartbeat(sim, fiber.node, [held]);
    let applied = false;
    if (!run.cancelRequested) {
      await sim.sleepLocal(fiber, op.workMs);
      applied = (await runEffect(sim, fiber, j, held, run)) === 'applied';
    }
    handlerReturned(sim, handler, op, applied);
    await release(sim, fiber, held);
  } finally {
    if (!fiber.dead) {
      sim.closeOp(runProcess, 'ok', { group: spec.group, runId });
      groupDone(sim, spec.group, runId);
    }
  }
}

/** When the plan admitted the operation (its trigger); a retry keeps the admission of its operation. */
function admissionOf(sim: Sim, op: OpSpec): number {
  const w = world(sim);
  if (w.admissions === null) {
    w.admissions = new Map();
    for (const step of sim.plan.steps) if (step.kind === 'op') w.admissions.set(step.op.id, step.at);
  }
  const at = w.admissions.get(op.id);
  if (at === undefined) throw new Error(`operation ${op.id} is not in the plan`);
  return at;
}

/** A retried run is a new submission: the group model sees each run id once. */
export function runIdOf(j: Journal): string {
  return j.attempt === 1 ? j.op.id : `${j.op.id}.r${j.attempt}`;
}

export function groupDone(sim: Sim, group: string, runId: string): void {
  const w = world(sim);
  const state = w.groups.get(group);
  w.runs.delete(runId);
  if (state === undefined) return;
  if (state.queued.some((r) => r.runId === runId)) {
    // A queued run whose controller died leaves the queue; it never started, so nothing to settle.
    w.groups.set(group, { ...state, queued: state.queued.filter((r) => r.runId !== runId) });
    return;
  }
  if (![...state.active, ...state.cancelling].some((r) => r.runId === runId)) return;
  const done = complete(state, runId);
  w.groups.set(group, done.group);
  for (const next of done.started) w.started.add(next.runId);
}

function cancelRun(sim: Sim, process: string, node: Node, spec: NonNullable<OpSpec['group']>, victim: string, supersedable: boolean): void {
  const w = world(sim);
  recordCancel(sim, process, { group: spec.group, runId: victim, supersedable, mode: spec.mode });
  let run = w.runs.get(victim);
  if (run === undefined) {
    run = { op: { id: victim } as OpSpec, node, cancelRequested: true, held: null };
    w.runs.set(victim, run);
  }
  run.cancelRequested = true;
  recordCause(sim, run.held?.run, 'cancelled');
  // Never started: superseded while queued, nothing to release.
  if (!w.started.has(victim)) w.superseded.add(victim);
}
