// A queued holder that hands its lease on (seed 000 §86–§92, §110–§114, §198–§199): it enqueues,
// waits its turn or gives up at its wait timeout (CancelWait), works, and hands the lease to a
// verifier in one atomic transition. Its requests go over a transport that delivers them twice
// (sim/redelivery.ts): the second Enqueue finds the waiter already queued (Rejected), the second
// CancelWait finds it gone (NotWaiting), and the second Handoff names a token the first one ended
// (Stale). The holder does not renew: a holder paused past its TTL hands off a lease that is no
// longer its own, and the store refuses it (Stale) however sure the holder is.

import type { Fiber, Journal, Sim } from './engine.ts';
import { holderName, WAIT_FALLBACK_POLL_MS } from './controller-world.ts';
import { redelivered } from './redelivery.ts';

export async function verifiedHandoffJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  const holder = holderName(sim, fiber.node);
  const waiterId = `${op.id}/${fiber.node.proc}/w`;
  const enqueued = await redelivered(sim, fiber, { kind: 'Enqueue', scope: op.scope, waiterId, holder, priority: op.priority });
  if (enqueued.first?.kind !== 'Enqueued') return;
  const deadline = sim.local(fiber.node) + sim.plan.waitTimeoutMs;
  for (;;) {
    const r = await sim.call(fiber, { kind: 'Acquire', scope: op.scope, holder, ttlMs: op.ttlMs, waiterId }, fiber.process, [op.scope]);
    if (r?.kind === 'Acquired') return handOff(sim, fiber, j, r.lease);
    if (r?.kind === 'Rejected' && r.reason === 'unknown-waiter') return;
    if (sim.local(fiber.node) >= deadline) {
      await redelivered(sim, fiber, { kind: 'CancelWait', scope: op.scope, waiterId });
      return;
    }
    await sim.waitNotify(fiber, Math.min(WAIT_FALLBACK_POLL_MS, Math.max(1, deadline - sim.local(fiber.node))));
  }
}

async function handOff(sim: Sim, fiber: Fiber, j: Journal, lease: { readonly scope: string; readonly holder: string; readonly token: number }): Promise<void> {
  const op = j.op;
  await sim.sleepLocal(fiber, op.workMs);
  const verifier = `${fiber.node.proc}:verify`;
  const handed = await redelivered(sim, fiber, { kind: 'Handoff', scope: lease.scope, holder: lease.holder, token: lease.token, newHolder: verifier, ttlMs: op.ttlMs });
  if (handed.first?.kind !== 'HandedOff') return;
  const next = handed.first.lease;
  await sim.sleepLocal(fiber, Math.floor(op.workMs / 4));
  await sim.call(fiber, { kind: 'Release', scope: next.scope, holder: next.holder, token: next.token });
}
