// A lease holder's handler at work (seed 002 "Why staged" 2, "bound the ExtendLock call"; seed 003
// 0892821, "no holder outlives a lease the runtime can no longer maintain"; seed 000 §157–§160).
// When the plan gives an operation `workStepMs`, its handler works in steps, and each step is a
// unit of unfenced work that only a lease holder may do: the simulator records it as a
// `work-step` truth event. Each step is a stretch of local time followed by that unit of work,
// and before doing the unit the handler asks whether it may go on. It may not once its renewal
// failed (OwnershipUncertain), and it may not once its lease's local validity window has passed:
// a renewal call that hangs (a held message, a partition, a stalled session) tells it nothing, so
// the window, not the refresh loop, bounds its work.

import type { Fiber, Node, Sim } from './engine.ts';
import { LEASE_WINDOW_SHARE, world, type HeldLease } from './controller-world.ts';
import type { OpSpec } from './plan.ts';
import type { Lease } from '../model/outcomes.ts';
import { recordCause } from './handler-run.ts';
import { renewalOf } from './renewal-kind.ts';

/** The holder's monotonic clock now (a clock skew does not step it). */
export function monoNow(sim: Sim, node: Node): number {
  return node.clock.monotonic(sim.now);
}

/** A grant or confirmed renewal of `lease`, sent at `sentMono`, extends the lease's local validity window. */
export function extendWindow(sim: Sim, lease: Lease, sentMono: number): void {
  const windows = world(sim).leaseWindows;
  const end = sentMono + Math.floor((lease.expiresAt - lease.acquiredAt) * LEASE_WINDOW_SHARE);
  const known = windows.get(lease);
  if (known === undefined || end > known) windows.set(lease, end);
}

/**
 * A renewal of `lease`, sent at `sentMono`, was granted: it extends the window only where the
 * store's renewals extend the lease (capabilities.renewal). Where they only confirm it, the
 * lease still ends where its grant put it, and so does the window. Returns whether it extended.
 */
export function renewWindow(sim: Sim, lease: Lease, sentMono: number): boolean {
  if (renewalOf(sim.store) !== 'extends') return false;
  extendWindow(sim, lease, sentMono);
  return true;
}

/**
 * Whether `held`'s local window has `marginMs` left (true when the policy does not bound work by
 * the lease): where renewals only confirm, the window from the grant is the holder's only bound.
 */
export function windowLeft(sim: Sim, fiber: Fiber, held: HeldLease, marginMs: number): boolean {
  if (!sim.policy.boundWorkByLease) return true;
  const end = world(sim).leaseWindows.get(held.lease);
  return end !== undefined && monoNow(sim, fiber.node) + marginMs < end;
}

/** Whether the handler may do another unit of work under `held` now. */
export function mayWork(sim: Sim, fiber: Fiber, held: HeldLease): boolean {
  if (held.released) return false;
  if (held.lost && sim.policy.stopOnRenewalFailure) return false;
  if (!sim.policy.boundWorkByLease) return true;
  // A lease whose grant was never timed has no window the holder can count on.
  const end = world(sim).leaseWindows.get(held.lease);
  return end !== undefined && monoNow(sim, fiber.node) < end;
}

/**
 * Works for `localMs` under `held`: in one piece when the operation has no `workStepMs`, else in
 * steps, checking before each. Returns false when the handler had to stop (its lease lost or its
 * window passed): the caller does no more work under the lease.
 */
export async function workFor(sim: Sim, fiber: Fiber, op: OpSpec, held: HeldLease, localMs: number): Promise<boolean> {
  const step = op.workStepMs;
  if (step === undefined) {
    await sim.sleepLocal(fiber, localMs);
    return true;
  }
  let remaining = localMs;
  while (remaining > 0) {
    const d = Math.min(step, remaining);
    await sim.sleepLocal(fiber, d);
    remaining -= d;
    if (!mayWork(sim, fiber, held)) {
      // A window that passed with no refusal heard is the run's cause: the runtime stopped it, as
      // a refresh call that timed out would (a refusal or a release was recorded where it came).
      if (!held.lost && !held.released) recordCause(sim, held.run, 'window-passed');
      return false;
    }
    sim.history.truth(sim.now, 'handler', 'work-step', { scope: held.lease.scope, token: held.lease.token, holder: held.lease.holder, process: fiber.process });
  }
  return true;
}
