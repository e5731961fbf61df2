// The workloads a controller runs (seed 000 §123–§140, §10–§17, §43–§53, §93–§107, §200–§206):
// each is the client protocol applied to one kind of operation.

import type { Lease } from '../model/outcomes.ts';
import { resolveForTenant } from '../model/scope.ts';
import { noteScope, plannedScope } from './scope-names.ts';
import { API_RETENTION_MS, holderName, WAIT_FALLBACK_POLL_MS, WAIT_POLL_MS, world, type HeldLease, type RunningJob } from './controller-world.ts';
import { runEffect } from './effect-protocol.ts';
import type { Fiber, Journal, Node, Sim } from './engine.ts';
import type { OpSpec } from './plan.ts';
import { mutate, obtainLease, release, startHeartbeat } from './lease-protocol.ts';
import { extendWindow, monoNow, workFor } from './handler-work.ts';
import { beginRun, handlerReturned, recordCause } from './handler-run.ts';

export async function exclusiveJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  const lease = await obtainLease(sim, fiber, op, op.scope, op.wait, j.attempt);
  if (lease === null) return;
  const held: HeldLease = { lease, lost: false, released: false };
  const run: RunningJob = { op, node: fiber.node, cancelRequested: false, held };
  world(sim).runs.set(op.id, run);
  const handler = beginRun(sim, fiber, [held]);
  startHeartbeat(sim, fiber.node, [held]);
  if (op.cancelAfterMs !== undefined) requestCancelLater(sim, fiber.node, run, op.cancelAfterMs);
  // Preparing takes time; a holder that stalls here and lost its lease is stopped by the fenced
  // transition below, not by its own belief (§25–§27). A handler that works in steps stops on its
  // own once it may no longer count on its lease (sim/handler-work.ts).
  // Running the change takes the rest of the work; the lease is confirmed again before the effect.
  // Observed and reconciled: the outcome is committed to the aggregate, fenced by the store
  // itself (§27, §66–§70) — a holder that lost its lease meanwhile is rejected there.
  const prepareMs = Math.floor(op.workMs / 2);
  const done =
    (await workFor(sim, fiber, op, held, prepareMs)) &&
    (await mutate(sim, fiber, op, held)) &&
    (await workFor(sim, fiber, op, held, op.workMs - prepareMs)) &&
    (await runEffect(sim, fiber, j, held, run)) === 'applied' &&
    (await mutate(sim, fiber, op, held));
  // A migration hands its lease to the post-migration verifier instead of releasing it.
  const verified = done && op.workload === 'migration' ? await handOffToVerifier(sim, fiber, op, held) : done;
  handlerReturned(sim, handler, op, verified);
  await release(sim, fiber, held);
  world(sim).runs.delete(op.id);
}

/**
 * Ownership handoff (§110–§114): one atomic transition to a new holder under a new token. The
 * verifier (a sub-process of the same incarnation) records the verified schema under its own
 * token and releases; the old token is stale from the handoff on.
 */
async function handOffToVerifier(sim: Sim, fiber: Fiber, op: OpSpec, held: HeldLease): Promise<boolean> {
  if (held.lost) return false;
  const ttlMs = held.lease.expiresAt - held.lease.acquiredAt;
  const r = await sim.call(fiber, { kind: 'Handoff', scope: held.lease.scope, holder: held.lease.holder, token: held.lease.token, newHolder: `${fiber.node.proc}:verify`, ttlMs });
  if (r?.kind !== 'HandedOff') return false;
  held.released = true;
  // The verifier is the migration handler's last step: a loss of its lease stops the same run.
  const verifier: HeldLease = { lease: r.lease, lost: false, released: false, ...(held.run === undefined ? {} : { run: held.run }) };
  startHeartbeat(sim, fiber.node, [verifier]);
  await sim.sleepLocal(fiber, Math.floor(op.workMs / 4));
  const verified = await mutate(sim, fiber, op, verifier);
  await release(sim, fiber, verifier);
  return verified;
}

/**
 * A deploy whose environment reference is resolved for the caller's tenant at run time (§242–§250,
 * §295): a reference to another tenant's environment is refused, never rewritten; an own one
 * becomes a tenant-qualified scope id and the deploy runs on it. Each resolution is recorded as a
 * `resolve-scope` operation for the tenant-isolation invariant.
 */
export async function crossTenantJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  const ref = op.scopeRef;
  if (ref === undefined) return exclusiveJob(sim, fiber, j);
  sim.history.op(sim.now, fiber.process, 'invoke', 'resolve-scope', { tenant: op.tenant, ref });
  const resolved = resolveForTenant(op.tenant, ref);
  if (resolved.kind !== 'Scope') {
    sim.history.op(sim.now, fiber.process, 'fail', 'resolve-scope', { reason: resolved.reason });
    return;
  }
  noteScope(resolved.ref, resolved.id);
  // A planner that leaves the tenant out of the id (a broken policy) maps every tenant's reference to one scope.
  const scope = sim.policy.scopeIdsCarryTenant ? resolved.id : plannedScope({ ...ref, tenant: 'any-tenant' });
  sim.history.op(sim.now, fiber.process, 'ok', 'resolve-scope', { scope });
  j.op = { ...op, scope };
  return exclusiveJob(sim, fiber, j);
}

/** A user cancels a running deploy (§115–§116, §289): the run stops new effects, reconciles, then releases. */
function requestCancelLater(sim: Sim, node: Node, run: RunningJob, afterMs: number): void {
  sim.spawn(node, `${node.proc}:cx`, async (fiber) => {
    await sim.sleepLocal(fiber, afterMs);
    if (run.held === null || run.held.released) return;
    recordCancel(sim, fiber.process, { group: 'deploy', runId: run.op.id, supersedable: false, mode: 'Cancel' });
    run.cancelRequested = true;
    recordCause(sim, run.held.run, 'cancelled');
  });
}

/**
 * A cancellation is a request, recorded when made; the run itself stops new effects, reconciles
 * and only then releases (§116), and that Release is in the history as the run's own operation.
 */
export function recordCancel(sim: Sim, process: string, value: { group: string; runId: string; supersedable: boolean; mode: string }): void {
  sim.history.op(sim.now, process, 'invoke', 'cancel', value);
  sim.history.op(sim.now, process, 'ok', 'cancel', { runId: value.runId, requested: true });
}

/** Device reservation with saga compensation (§39, §107, §292): reserve, then lease, else release the reservation. */
export async function deviceJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  const pool = op.scopes![0]!;
  const reservationId = `${op.id}/${fiber.node.proc}/r`;
  const r = await sim.call(fiber, { kind: 'Reserve', scope: pool, reservationId, owner: fiber.node.proc, units: op.units ?? 1, ttlMs: op.ttlMs * 2 });
  if (r?.kind !== 'Reserved') return;
  const lease = await obtainLease(sim, fiber, op, op.scope, false, j.attempt);
  if (lease === null) {
    await sim.call(fiber, { kind: 'ReleaseReservation', reservationId });
    return;
  }
  const held: HeldLease = { lease, lost: false, released: false };
  const handler = beginRun(sim, fiber, [held]);
  startHeartbeat(sim, fiber.node, [held]);
  handlerReturned(sim, handler, op, await resetDevice(sim, fiber, j, held, reservationId));
  await release(sim, fiber, held);
}

/** The device handler: activate the reservation, reset the device, consume the reservation; whether it was consumed. */
async function resetDevice(sim: Sim, fiber: Fiber, j: Journal, held: HeldLease, reservationId: string): Promise<boolean> {
  const op = j.op;
  const active = await sim.call(fiber, { kind: 'ActivateReservation', reservationId });
  if (active?.kind !== 'ReservationUpdated' || !(await mutate(sim, fiber, op, held))) {
    await sim.call(fiber, { kind: 'ReleaseReservation', reservationId });
    return false;
  }
  await sim.sleepLocal(fiber, op.workMs);
  const result = await runEffect(sim, fiber, j, held, null);
  if (result !== 'applied') {
    // The work under the reservation failed (or never reached the device): the reservation failed with it.
    await sim.call(fiber, { kind: 'FailReservation', reservationId });
    return false;
  }
  // The reset device is checked before the reservation is consumed; the reservation may
  // expire meanwhile, and an expired reservation is never consumed (§37–§42).
  await sim.sleepLocal(fiber, Math.floor(op.workMs / 2));
  return (await sim.call(fiber, { kind: 'ConsumeReservation', reservationId }))?.kind === 'ReservationUpdated';
}

/** A signing slot: a permit of a capacity-2 semaphore (§93–§96, §140, §293). */
export async function permitJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  const permitId = `${op.id}/${fiber.node.proc}/p`;
  const deadline = sim.local(fiber.node) + sim.plan.waitTimeoutMs;
  for (;;) {
    const r = await sim.call(fiber, { kind: 'AcquirePermit', scope: op.scope, permitId, holder: fiber.node.proc, units: op.units ?? 1, ttlMs: op.ttlMs }, fiber.process, [op.scope]);
    if (r?.kind === 'Granted') break;
    if (sim.local(fiber.node) >= deadline) return;
    await sim.waitNotify(fiber, Math.min(WAIT_FALLBACK_POLL_MS, Math.max(1, deadline - sim.local(fiber.node))));
  }
  await sim.sleepLocal(fiber, Math.min(op.workMs, Math.floor(op.ttlMs / 3)));
  await runEffect(sim, fiber, j, null, null);
  await sim.call(fiber, { kind: 'ReleasePermit', scope: op.scope, permitId });
}

/** Idempotent API request with client retries (§43–§53, §283–§284). */
export async function apiJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  const key = op.idempotency!;
  for (let tries = 0; tries < 3; tries++) {
    const begin = await sim.call(fiber, { kind: 'IdempotencyBegin', ...key, retentionMs: sim.plan.idempotencyRetentionMs ?? API_RETENTION_MS, retryAfterTerminal: op.retryAfterTerminal === true });
    if (begin === null) return;
    switch (begin.kind) {
      case 'New': {
        j.intentId = apiIntentId(key);
        const result = await runEffect(sim, fiber, j, null, null);
        await sim.call(fiber, { kind: 'IdempotencyComplete', ...key, outcome: result === 'applied' ? { kind: 'Succeeded', response: j.intentId } : { kind: 'FailedTerminal', error: 'provider refused' } });
        return;
      }
      case 'InProgress':
        await sim.sleepLocal(fiber, WAIT_POLL_MS * 2);
        continue;
      case 'Unknown':
        // Unknown is never turned into a new operation (§53): inspect, then resolve the record.
        await resolveUnknownKey(sim, fiber, j);
        return;
      case 'Replay':
      case 'Conflict':
      case 'Rejected':
        return;
    }
  }
}

/** The provider intent of an idempotent request: the whole record identity and the digest, so two records never share one. */
function apiIntentId(key: { readonly tenant: string; readonly operation: string; readonly subject: string; readonly key: string; readonly digest: string }): string {
  return `api/${key.tenant}/${key.operation}/${key.subject}/${key.key}/${key.digest}`;
}

async function resolveUnknownKey(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const key = j.op.idempotency!;
  const intentId = apiIntentId(key);
  if (sim.policy.unknownIsFailure) {
    await sim.call(fiber, { kind: 'IdempotencyComplete', ...key, outcome: { kind: 'FailedTerminal', error: 'treated as failed' } });
    return;
  }
  const applied = await sim.inspect(fiber, intentId);
  await sim.call(fiber, { kind: 'IdempotencyComplete', ...key, outcome: applied ? { kind: 'Succeeded', response: intentId } : { kind: 'FailedTerminal', error: 'not applied' } });
}

/** Several resources at once: canonical order, all or nothing (§99–§105, §291). */
export async function multiJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  const scopes = op.scopes!;
  const holder = holderName(sim, fiber.node);
  let leases: Lease[] = [];
  const deadline = sim.local(fiber.node) + sim.plan.waitTimeoutMs;
  if (sim.policy.canonicalOrder) {
    for (;;) {
      const sent = monoNow(sim, fiber.node);
      const r = await sim.call(fiber, { kind: 'AcquireAll', scopes, holder, ttlMs: op.ttlMs }, fiber.process, op.wait ? scopes : null);
      if (r?.kind === 'AcquiredAll') {
        leases = [...r.leases];
        // Each lease's local window starts when the call was sent, as a single Acquire's does.
        for (const lease of leases) extendWindow(sim, lease, sent);
        break;
      }
      if (!op.wait || sim.local(fiber.node) >= deadline) return;
      await sim.waitNotify(fiber, Math.min(WAIT_FALLBACK_POLL_MS, Math.max(1, deadline - sim.local(fiber.node))));
    }
  } else {
    // Nested acquisition in request order: two requests listing the same scopes in opposite
    // orders can each hold one and wait for the other (the deadlock §100–§103 forbid).
    const partial: HeldLease[] = [];
    for (const scope of scopes) {
      const lease = await obtainLease(sim, fiber, op, scope, true, j.attempt);
      if (lease === null) break;
      const held: HeldLease = { lease, lost: false, released: false };
      // Held leases are kept alive while waiting for the next one: that is what closes the cycle.
      startHeartbeat(sim, fiber.node, [held]);
      partial.push(held);
      leases.push(lease);
    }
    if (leases.length < scopes.length) {
      for (const held of partial) await release(sim, fiber, held);
      return;
    }
    return holdAll(sim, fiber, j, partial, partial[0]!);
  }
  const helds = leases.map((lease): HeldLease => ({ lease, lost: false, released: false }));
  startHeartbeat(sim, fiber.node, helds);
  return holdAll(sim, fiber, j, helds, helds.find((h) => h.lease.scope === op.scope) ?? helds[0]!);
}

/** The multi-resource handler, once every lease is held (their refresh loops running): the effect under `primary`, then release all. */
async function holdAll(sim: Sim, fiber: Fiber, j: Journal, helds: ReadonlyArray<HeldLease>, primary: HeldLease): Promise<void> {
  const handler = beginRun(sim, fiber, [primary, ...helds.filter((h) => h !== primary)]);
  await sim.sleepLocal(fiber, j.op.workMs);
  handlerReturned(sim, handler, j.op, (await runEffect(sim, fiber, j, primary, null, primary.lease.scope)) === 'applied');
  for (const held of helds) await release(sim, fiber, held);
}
