// A handler's run under its leases and the outcome the runtime gives it (seed 003: "Snapshot the
// cancellation cause before draining the refresh loop, so a lease-loss result that lands only after
// the handler already returned cannot reclassify the completed run as preempted or suppress a real
// handler error"; seed 000 §157–§159, a holder that lost its lease is OwnershipUncertain, and
// §224–§225, a run's result is what the runtime reports of it).
//
// A run opens once its leases are held: the `run` operation of a process of its own. The
// runtime's cancellation cause is set by the first thing that tells the run to stop: a renewal
// refused (by the refresh loop or a confirmation), a fenced write refused, the lease's local
// window passing, a confirmation that never came back in time to act on, or a user's cancellation. When the handler returns, it records its own result
// (`handler-returned`, ground truth: the handler is the testbed's code), the runtime stops the
// refresh loop and, once the renewals in flight at that moment have landed (the drain), closes
// the run: `completed` (ok), or `error` or `preempted` (fail). The correct runtime classifies by
// the cause as it stood at the return; what lands during the drain is recorded (`cancel-cause`)
// but changes nothing. The main fiber never waits for the drain: it releases at once, as before.

import { strict as assert } from 'node:assert';
import { world, type CancelCause, type HandlerRun, type HeldLease } from './controller-world.ts';
import type { Fiber, Sim } from './engine.ts';
import type { OpSpec } from './plan.ts';

type RunOutcome = 'completed' | 'error' | 'preempted';

/** Opens the run of a handler under `helds` (the first names it); `cancelled`: a cancellation came before it started. */
export function beginRun(sim: Sim, fiber: Fiber, helds: ReadonlyArray<HeldLease>, cancelled = false): HandlerRun {
  assert.ok(helds.length > 0, 'a handler run holds at least one lease');
  const w = world(sim);
  w.handlerRuns++;
  const run: HandlerRun = { process: `${fiber.node.proc}:run${w.handlerRuns}`, cause: null, result: null, causeAtReturn: null, refreshing: 0, classified: false };
  for (const held of helds) {
    assert.ok(held.run === undefined, 'a lease serves one handler run');
    held.run = run;
  }
  const { scope, token, holder } = helds[0]!.lease;
  sim.openOp(fiber.node, run.process, 'run', { scope, token, holder });
  if (cancelled) recordCause(sim, run, 'cancelled');
  return run;
}

/**
 * The run is told to stop: the first cause counts, and is recorded when it is seen, before or
 * after the handler returned, until the run is classified.
 */
export function recordCause(sim: Sim, run: HandlerRun | undefined, cause: CancelCause): void {
  if (run === undefined || run.classified || run.cause !== null) return;
  run.cause = cause;
  sim.history.truth(sim.now, 'handler', 'cancel-cause', { process: run.process, cause });
}

/**
 * The handler of `op` returned: ok when it did its work (`succeeded`) and the plan does not make
 * it fail. The cause is snapshotted now; the run is classified once the refresh loop drained.
 */
export function handlerReturned(sim: Sim, run: HandlerRun, op: OpSpec, succeeded: boolean): void {
  assert.ok(run.result === null, `${run.process}: a handler returns once`);
  assert.ok(!run.classified, `${run.process}: not classified before its handler returned`);
  const result = succeeded && op.handlerFails !== true ? 'ok' : 'error';
  run.result = result;
  run.causeAtReturn = run.cause;
  sim.history.truth(sim.now, 'handler', 'handler-returned', { process: run.process, result });
  if (run.refreshing === 0) classify(sim, run);
}

/**
 * A refresh loop sends a renewal for a lease of `run`. Only renewals sent while the handler runs
 * are drained: once it returned the loop has been told to stop. Returns whether this one counts.
 */
export function refreshSent(run: HandlerRun | undefined): boolean {
  if (run === undefined || run.result !== null) return false;
  run.refreshing++;
  return true;
}

/** A renewal that `refreshSent` counted has landed (its refusal, if any, already recorded). */
export function refreshLanded(sim: Sim, run: HandlerRun | undefined, counted: boolean): void {
  if (run === undefined || !counted) return;
  assert.ok(run.refreshing > 0, `${run.process}: a renewal lands only after it was sent`);
  run.refreshing--;
  if (run.result !== null && run.refreshing === 0) classify(sim, run);
}

/**
 * Closes the run with its outcome: preempted when a cause was set, else the handler's own result.
 * The correct runtime reads the cause it snapshotted at the return; one that reads it after the
 * drain (policy `snapshotCauseAtReturn` off) lets a loss that landed meanwhile reclassify the run.
 */
function classify(sim: Sim, run: HandlerRun): void {
  assert.ok(run.result !== null, `${run.process}: classified once its handler returned`);
  assert.ok(run.refreshing === 0, `${run.process}: classified once its refresh loop drained`);
  assert.ok(!run.classified, `${run.process}: classified once`);
  run.classified = true;
  const cause = sim.policy.snapshotCauseAtReturn ? run.causeAtReturn : run.cause;
  const outcome: RunOutcome = cause !== null ? 'preempted' : run.result === 'ok' ? 'completed' : 'error';
  sim.closeOp(run.process, outcome === 'completed' ? 'ok' : 'fail', cause === null ? { outcome } : { outcome, cause });
}
