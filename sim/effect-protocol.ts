// The external-effect side of the client protocol (§59–§65, §115–§117): persist the intent, confirm
// the lease, call the provider, observe, reconcile the intent.

import type { Fiber, Journal, Sim } from './engine.ts';
import { holderName, world, type HeldLease, type RunningJob } from './controller-world.ts';
import { confirm, release } from './lease-protocol.ts';

export type EffectResult = 'applied' | 'not-applied' | 'uncertain' | 'cancelled';

/** Plans the intent, confirms the lease, calls the provider and reconciles the intent (§59–§65). */
export async function runEffect(sim: Sim, fiber: Fiber, j: Journal, held: HeldLease | null, run: RunningJob | null, scope = j.op.scope): Promise<EffectResult> {
  const op = j.op;
  const intentId = j.intentId ?? `${op.id}/e`;
  j.intentId = intentId;
  const token = held?.lease.token;
  if (held !== null) {
    await sim.call(fiber, { kind: 'PlanIntent', intentId, scope, token: held.lease.token, operation: op.operation, retrySafety: op.retrySafety });
    if (run?.cancelRequested === true && sim.policy.stopCancelledRuns) {
      // Cancelled before the effect started: stop new side effects (§116).
      await sim.call(fiber, { kind: 'TransitionIntent', intentId, to: 'Failed' });
      return 'cancelled';
    }
    await sim.call(fiber, { kind: 'TransitionIntent', intentId, to: 'Started' });
    // The lease is confirmed last, so nothing (a pause, a slow reply) sits between it and the call.
    if (!(await confirm(sim, fiber, held))) {
      // OwnershipUncertain: no new protected side effect; the intent never reached the provider.
      await sim.call(fiber, { kind: 'TransitionIntent', intentId, to: 'Failed' });
      return 'uncertain';
    }
    // Without intents the effect starts at the provider call, not at a Started record: the
    // cancellation is checked last right before it, as it is before Started above (§116).
    if (!sim.supports('PlanIntent') && run?.cancelRequested === true && sim.policy.stopCancelledRuns) return 'cancelled';
    if (sim.policy.releaseBeforeReconcile) await release(sim, fiber, held);
  }
  if (!sim.policy.callProvider) {
    // Only a broken policy gets here: the work is reported not done without ever being sent.
    if (held !== null) await sim.call(fiber, { kind: 'TransitionIntent', intentId, to: 'Failed' });
    return 'not-applied';
  }
  j.effectInFlight = true;
  world(sim).unobserved.set(fiber.node.proc, { intentId, scope });
  const request = { intentId, scope, token, holder: holderName(sim, fiber.node), operation: op.operation, retrySafety: op.retrySafety, fencing: op.fencing && sim.policy.sendFencingToken && token !== undefined };
  const carryOn = sim.policy.retryMiddleware || sim.policy.unknownIsFailure;
  let applied = await sim.effectOrCarryOn(fiber, request, j.attempt, carryOn);
  if (applied === null) {
    // Only a broken policy gets here: the timeout was not treated as an unknown outcome (§53, §194).
    if (sim.policy.unknownIsFailure && held !== null) await sim.call(fiber, { kind: 'TransitionIntent', intentId, to: 'Failed' });
    j.attempt += 1;
    applied = await sim.effect(fiber, request, j.attempt);
  }
  j.effectInFlight = false;
  world(sim).unobserved.delete(fiber.node.proc);
  if (held !== null) await sim.call(fiber, { kind: 'TransitionIntent', intentId, to: applied ? 'Succeeded' : 'Failed' });
  return applied ? 'applied' : 'not-applied';
}
