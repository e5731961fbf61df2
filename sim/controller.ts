// The client protocol a controller runs for each operation (seed 000 §2, §318): idempotency
// check → scope (resolved by the planner) → lease (try, or enqueue and wait) → canonical
// transition carrying token and aggregate version → external effect through a persisted intent →
// observe → reconcile → release. Every decision that a known bug gets wrong sits behind one flag
// of ControllerPolicy. This file starts operations and recovers after crashes; the protocol steps
// live in lease-protocol.ts and effect-protocol.ts, the workloads in workloads.ts and group-workload.ts.

import { afterInspection, retryDecision } from '../model/retry-policy.ts';
import type { WorkloadKind } from '../scenarios/schema.ts';
import type { Fiber, Journal, Node, Sim, SimHooks } from './engine.ts';
import { MAX_ATTEMPTS, world } from './controller-world.ts';
import { jobAttemptJob } from './job-attempt-workload.ts';
import { misbehavingClientJob } from './misbehaving-client.ts';
import { reservationSagaJob } from './reservation-saga-workload.ts';
import { roleTakeoverJob } from './role-takeover-workload.ts';
import { verifiedHandoffJob } from './verified-handoff-workload.ts';
import { apiJob, crossTenantJob, deviceJob, exclusiveJob, multiJob, permitJob } from './workloads.ts';
import { forceReleaseJob } from './force-release-workload.ts';
import { groupDone, groupJob, runIdOf } from './group-workload.ts';

export const controllerHooks: SimHooks = {
  startNext,
  recover(sim, node) {
    const journal = node.journal;
    if (node.name === 'recovery') {
      const scopes = world(sim).blockedPending;
      if (scopes.length > 0) sim.spawn(node, node.proc, (fiber) => reconcileBlocked(sim, fiber, scopes));
      return;
    }
    if (journal === null) {
      startNext(sim, node);
      return;
    }
    node.busy = true;
    sim.spawn(node, node.proc, (fiber) => recoverJob(sim, fiber, journal));
  },
  afterRecoveryEpoch(sim, scopes) {
    // Under coordination the scheduler leader reopens the scopes of its jobs (coordination/scheduler.ts).
    if (sim.coordination !== null) return;
    const node = sim.nodes.get('recovery')!;
    const w = world(sim);
    w.blockedPending = [...new Set([...w.blockedPending, ...scopes])].sort();
    if (node.down) return;
    sim.spawn(node, node.proc, (fiber) => reconcileBlocked(sim, fiber, scopes));
  },
};

function startNext(sim: Sim, node: Node): void {
  if (node.busy || node.down) return;
  const op = node.pending.shift();
  if (op === undefined) return;
  node.busy = true;
  const journal: Journal = { op, attempt: 1, intentId: null, effectInFlight: false };
  node.journal = journal;
  sim.spawn(node, node.proc, (fiber) => runJob(sim, fiber, journal));
}

function finish(sim: Sim, node: Node): void {
  node.journal = null;
  node.busy = false;
  startNext(sim, node);
}

async function runJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  await dispatch(sim, fiber, j);
  finish(sim, fiber.node);
}

/** The job each workload runs. */
const JOBS: Readonly<Record<WorkloadKind, (sim: Sim, fiber: Fiber, j: Journal) => Promise<void>>> = {
  'env-deploy': exclusiveJob,
  'infra-apply': exclusiveJob,
  'alias-publish': exclusiveJob,
  migration: exclusiveJob,
  'cancel-deploy': exclusiveJob,
  'cross-tenant': crossTenantJob,
  'device-reservation': deviceJob,
  'signing-slot': permitJob,
  'workflow-group': groupJob,
  'api-request': apiJob,
  'api-conflict': apiJob,
  'multi-resource': multiJob,
  'force-release': forceReleaseJob,
  'job-attempt': jobAttemptJob,
  'reservation-saga': reservationSagaJob,
  'verified-handoff': verifiedHandoffJob,
  'role-takeover': roleTakeoverJob,
  'misbehaving-client': misbehavingClientJob,
};

async function dispatch(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  return JOBS[j.op.workload](sim, fiber, j);
}

/**
 * A new incarnation reconciles what the previous one left (§287, seed 001 §13): it never inherits
 * the old lease; an effect that may have been applied is inspected before any retry (§64).
 */
async function recoverJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  const policy = sim.policy;
  if (op.group !== undefined) groupDone(sim, op.group.group, runIdOf(j));
  if (j.effectInFlight && j.intentId !== null) {
    j.effectInFlight = false;
    const intentId = j.intentId;
    const key = op.idempotency;
    if (key !== undefined) await sim.call(fiber, { kind: 'IdempotencyComplete', ...key, outcome: { kind: 'Unknown' } });
    const decision = retryDecision(op.retrySafety, policy.unknownIsFailure ? 'Failed' : 'Unknown');
    let applied = false;
    let inspected = false;
    if ((policy.inspectBeforeRetry && decision !== 'retry') || (key !== undefined && !policy.unknownIsFailure)) {
      applied = await sim.inspect(fiber, intentId);
      inspected = true;
    }
    let settled = !LEASED.has(op.workload);
    if (!settled) {
      await sim.call(fiber, { kind: 'TransitionIntent', intentId, to: 'Unknown' });
      settled = (await sim.call(fiber, { kind: 'TransitionIntent', intentId, to: 'Reconciled' }))?.kind === 'Transitioned';
    }
    // Still unobserved when the store did not take the reconciliation: a reopen inspects it first.
    if (settled) world(sim).unobserved.delete(`${fiber.node.name}#${fiber.node.incarnation - 1}`);
    if (key !== undefined) {
      const outcome = applied ? { kind: 'Succeeded' as const, response: intentId } : { kind: 'FailedTerminal' as const, error: 'not applied' };
      await sim.call(fiber, { kind: 'IdempotencyComplete', ...key, outcome });
    } else {
      const next = inspected ? afterInspection(op.retrySafety, applied) : decision === 'manual' ? 'manual' : 'retry';
      if (next === 'retry' && j.attempt < MAX_ATTEMPTS) {
        // The old lease is not inherited (seed 001 §13): the retry waits for a lease of its own.
        const again: Journal = { op: { ...op, wait: true }, attempt: j.attempt + 1, intentId, effectInFlight: false };
        fiber.node.journal = again;
        await dispatch(sim, fiber, again);
      }
    }
  }
  finish(sim, fiber.node);
}

const LEASED = new Set<string>(['env-deploy', 'infra-apply', 'alias-publish', 'migration', 'cancel-deploy', 'cross-tenant', 'device-reservation', 'workflow-group', 'multi-resource']);

/** After failover or restore: inspect the provider for every unsettled intent, then reopen (§275). */
async function reconcileBlocked(sim: Sim, fiber: Fiber, scopes: ReadonlyArray<string>): Promise<void> {
  const blocked = new Set(scopes);
  const pending = new Set<string>();
  // A broken procedure reopens at once, without looking at what was in flight.
  const view = sim.policy.inspectBeforeReopen ? await sim.call(fiber, { kind: 'Inspect' }) : null;
  if (!sim.policy.inspectBeforeReopen) blocked.clear();
  if (view !== null) for (const intent of view.view.intents) if (blocked.has(intent.scope) && (intent.state === 'Started' || intent.state === 'Unknown')) pending.add(intent.intentId);
  for (const u of [...world(sim).unobserved.values()].sort((a, b) => (a.intentId < b.intentId ? -1 : 1))) if (blocked.has(u.scope)) pending.add(u.intentId);
  for (const intentId of [...pending].sort()) {
    await sim.inspect(fiber, intentId);
    await sim.call(fiber, { kind: 'TransitionIntent', intentId, to: 'Unknown' });
    await sim.call(fiber, { kind: 'TransitionIntent', intentId, to: 'Reconciled' });
  }
  for (const scope of [...scopes].sort()) await sim.call(fiber, { kind: 'ReconcileScope', scope, actor: fiber.node.proc });
  const w = world(sim);
  w.blockedPending = w.blockedPending.filter((s) => !scopes.includes(s));
}
