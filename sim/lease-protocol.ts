// The lease side of the client protocol (§31–§36, §86–§92, §157–§160): try or enqueue-and-wait,
// confirm the lease right before a side effect, renew by the local clock, release; and the fenced
// canonical transition (§66–§70).

import type { RoleGuard } from '../model/commands.ts';
import type { Lease } from '../model/outcomes.ts';
import type { Fiber, Node, Sim } from './engine.ts';
import type { OpSpec } from './plan.ts';
import { holderName, WAIT_FALLBACK_POLL_MS, world, type HeldLease } from './controller-world.ts';
import { extendWindow, monoNow, renewWindow, windowLeft } from './handler-work.ts';
import { afterFenced, authorityOf } from './federation/site-authority.ts';
import { recordCause, refreshLanded, refreshSent } from './handler-run.ts';

/**
 * Acquire, under the authority guard of the controller's site in a federated run (`authority`);
 * a grant is remembered with the time its call was sent, the start of the lease's local window.
 */
async function acquire(sim: Sim, fiber: Fiber, op: OpSpec, scope: string, authority: { readonly guard?: RoleGuard }, waiterId?: string) {
  const sent = monoNow(sim, fiber.node);
  const command = { kind: 'Acquire' as const, scope, holder: holderName(sim, fiber.node), ttlMs: op.ttlMs, ...(waiterId === undefined ? {} : { waiterId }), ...authority };
  // A waiter's Acquire LISTENs on the scope in the same round trip, so a release after this answer wakes it.
  const send = (c: typeof command) => sim.call(fiber, c, fiber.process, waiterId === undefined ? null : [scope]);
  let r = await send(command);
  if (r?.kind === 'Fenced') r = await afterFenced(sim, fiber, op, command, r, send);
  if (r?.kind === 'Acquired') extendWindow(sim, r.lease, sent);
  return r;
}

export async function obtainLease(sim: Sim, fiber: Fiber, op: OpSpec, scope: string, wait: boolean, attempt: number): Promise<Lease | null> {
  const holder = holderName(sim, fiber.node);
  // A site without the authority of the operation's domain takes no lease in it (000 §167).
  const authority = authorityOf(sim, fiber, op);
  if (authority === null) return null;
  if (!wait) {
    const r = await acquire(sim, fiber, op, scope, authority);
    return r?.kind === 'Acquired' ? r.lease : null;
  }
  const waiterId = `${op.id}/${fiber.node.proc}/w${attempt}`;
  const waitProcess = `${fiber.node.proc}:wait`;
  sim.openOp(fiber.node, waitProcess, 'wait', { scope, waiterId });
  const deadline = sim.local(fiber.node) + sim.plan.waitTimeoutMs;
  let enqueued = false;
  // A store without a wait queue (capabilities.commands, sim/capabilities.ts): poll plain Acquire.
  const queued = sim.supports('Enqueue');
  for (;;) {
    // The site's view may change while it waits (a heal tells it who holds the authority now).
    const current = authorityOf(sim, fiber, op);
    if (current === null) return giveUpWait(sim, fiber, waitProcess, scope, waiterId, enqueued, 'site-authority');
    if (!queued) {
      const r = await acquire(sim, fiber, op, scope, current);
      if (r?.kind === 'Acquired') {
        sim.closeOp(waitProcess, 'ok', { scope, waiterId, token: r.lease.token });
        return r.lease;
      }
      if (r?.kind === 'Fenced') return giveUpWait(sim, fiber, waitProcess, scope, waiterId, false, 'fenced');
    } else if (!enqueued) {
      const e = await sim.call(fiber, { kind: 'Enqueue', scope, waiterId, holder, priority: op.priority });
      enqueued = e?.kind === 'Enqueued';
    }
    if (enqueued) {
      const r = await acquire(sim, fiber, op, scope, current, waiterId);
      // Fenced: the site lost the domain's authority while it waited; it leaves the queue.
      if (r?.kind === 'Fenced') return giveUpWait(sim, fiber, waitProcess, scope, waiterId, true, 'fenced');
      if (r?.kind === 'Acquired') {
        sim.closeOp(waitProcess, 'ok', { scope, waiterId, token: r.lease.token });
        if (!sim.policy.recheckAfterWait) {
          // Without the re-check the grant itself is taken as a fresh confirmation of ownership,
          // however long its reply took to be read (the displaced-waiter race, seed 003).
          world(sim).trustedGrants.set(r.lease, sim.local(fiber.node));
          return r.lease;
        }
        if (!(await confirm(sim, fiber, { lease: r.lease, lost: false, released: false }))) return null;
        return r.lease;
      }
      if (r?.kind === 'Rejected' && r.reason === 'unknown-waiter') enqueued = false;
    }
    if (sim.local(fiber.node) >= deadline) return giveUpWait(sim, fiber, waitProcess, scope, waiterId, enqueued, 'wait-timeout');
    await sim.waitNotify(fiber, Math.min(WAIT_FALLBACK_POLL_MS, Math.max(1, deadline - sim.local(fiber.node))));
  }
}

/** Ends a wait without the lease: leaves the queue when enqueued, and closes the `wait` operation. */
async function giveUpWait(sim: Sim, fiber: Fiber, waitProcess: string, scope: string, waiterId: string, enqueued: boolean, reason: string): Promise<null> {
  if (enqueued) await sim.call(fiber, { kind: 'CancelWait', scope, waiterId });
  sim.closeOp(waitProcess, 'fail', { scope, waiterId, reason });
  return null;
}

/**
 * The share of a TTL a holder whose renewals only confirm keeps back at the end of its window for
 * its effect call to reach the provider: a tenth, as much as the window keeps back for clock drift.
 * (A renewal that extends leaves at least two thirds; a held or partitioned call outlasts either.)
 */
const EFFECT_LANDING_SHARE = 0.1;

/**
 * Confirms the lease with the store right before a side effect (§157–§160): a holder cannot
 * assume its lease is still valid after a pause, a partition or a failover.
 */
export async function confirm(sim: Sim, fiber: Fiber, held: HeldLease): Promise<boolean> {
  const policy = sim.policy;
  if (held.lost && policy.stopOnRenewalFailure) return false;
  if (!policy.checkLeaseBeforeEffect) return true;
  const trustedAt = world(sim).trustedGrants.get(held.lease);
  if (trustedAt !== undefined && sim.local(fiber.node) - trustedAt < (held.lease.expiresAt - held.lease.acquiredAt) / 3) return true;
  for (let round = 0; round < 3; round++) {
    const sentLocal = sim.local(fiber.node);
    const sentMono = monoNow(sim, fiber.node);
    const r = await sim.call(fiber, { kind: 'Renew', scope: held.lease.scope, holder: held.lease.holder, expectedToken: held.lease.token, ttlMs: held.lease.expiresAt - held.lease.acquiredAt });
    if (r?.kind !== 'Renewed') {
      held.lost = true;
      recordCause(sim, held.run, 'renewal-refused');
      return !policy.stopOnRenewalFailure;
    }
    held.confirmedAtLocal = sentLocal;
    // A confirmation that does not extend the lease leaves the grant's window, whose end may be the
    // lease's very expiry in true time: the effect needs EFFECT_LANDING_SHARE of a TTL of it left.
    const ttl = held.lease.expiresAt - held.lease.acquiredAt;
    if (!renewWindow(sim, held.lease, sentMono) && !windowLeft(sim, fiber, held, ttl * EFFECT_LANDING_SHARE)) {
      if (!held.released) recordCause(sim, held.run, 'window-passed');
      return false;
    }
    // A reply that sat out a pause is too old to act on: confirm again.
    if (sim.local(fiber.node) - sentLocal < (held.lease.expiresAt - held.lease.acquiredAt) / 3) return true;
  }
  // No reply came back in time to act on: the holder cannot count on its lease, and its run stops.
  if (!policy.stopOnRenewalFailure) return true;
  if (!held.released) recordCause(sim, held.run, 'unconfirmed');
  return false;
}

export function startHeartbeat(sim: Sim, node: Node, leases: ReadonlyArray<HeldLease>): void {
  // Holders that count on the TTL alone (workload.renewals false) never renew.
  if (sim.plan.renewals === false) return;
  const ttl = leases[0]!.lease.expiresAt - leases[0]!.lease.acquiredAt;
  // Each heartbeat is its own process: one operation in flight per process (Jepsen).
  const w = world(sim);
  w.heartbeats++;
  sim.spawn(node, `${node.proc}:hb${w.heartbeats}`, async (fiber) => {
    const intervalMs = Math.max(1, Math.floor(ttl / 3));
    for (;;) {
      await sim.sleepLocal(fiber, intervalMs);
      const now = sim.local(node);
      for (const held of leases) {
        if (held.released || held.lost) continue;
        // Confirmed within the interval: renewed already, and the next beat still comes well
        // before expiry (at most two intervals after that confirmation).
        if (held.confirmedAtLocal !== undefined && now - held.confirmedAtLocal < intervalMs) continue;
        const sent = monoNow(sim, node);
        const counted = refreshSent(held.run);
        const r = await sim.call(fiber, { kind: 'Renew', scope: held.lease.scope, holder: held.lease.holder, expectedToken: held.lease.token, ttlMs: ttl });
        // Renewal failed: the holder is OwnershipUncertain and starts no new side effect (§157–§158).
        if (r?.kind !== 'Renewed') {
          held.lost = true;
          recordCause(sim, held.run, 'renewal-refused');
        } else renewWindow(sim, held.lease, sent);
        // A renewal in flight when the handler returned is what its run's drain waits for (seed 003).
        refreshLanded(sim, held.run, counted);
      }
      if (leases.every((h) => h.released || h.lost)) return;
    }
  });
}

export async function release(sim: Sim, fiber: Fiber, held: HeldLease): Promise<void> {
  if (held.released) return;
  held.released = true;
  if (held.lost) return;
  await sim.call(fiber, { kind: 'Release', scope: held.lease.scope, holder: held.lease.holder, token: held.lease.token });
}

/** Mutates the aggregate under the lease: token and expected version together (§66–§70). */
export async function mutate(sim: Sim, fiber: Fiber, op: OpSpec, held: HeldLease): Promise<boolean> {
  const w = world(sim);
  const key = `${op.scope}/${op.aggregate}`;
  for (let round = 0; round < 2; round++) {
    // In a federated run the write carries the site's authority guard as the site knows it now.
    const authority = authorityOf(sim, fiber, op);
    if (authority === null) return false;
    const expectedVersion = w.versions.get(key) ?? 0;
    const command = { kind: 'Mutate' as const, scope: op.scope, aggregate: op.aggregate, holder: held.lease.holder, token: held.lease.token, expectedVersion, ...authority };
    const send = (c: typeof command) => sim.call(fiber, c);
    let r = await send(command);
    if (r?.kind === 'Fenced') r = await afterFenced(sim, fiber, op, command, r, send);
    if (r === null) return false;
    if (r.kind === 'Accepted') {
      w.versions.set(key, r.version);
      return true;
    }
    // Fenced: the lease is still the holder's own, so it is released, not taken for lost; the
    // refused write still stops the run, which ends preempted (sim/handler-run.ts).
    if (r.kind === 'Fenced') {
      recordCause(sim, held.run, 'write-refused');
      return false;
    }
    if (r.kind !== 'StaleVersion') {
      held.lost = true;
      recordCause(sim, held.run, 'write-refused');
      return false;
    }
    w.versions.set(key, r.currentVersion);
  }
  return false;
}
