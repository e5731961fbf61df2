// A misbehaving client (seed 000 §31, §54, §91, §99–§109, §200–§206, §290): a deployment has buggy
// clients and scripts as well as correct controllers, and the store must refuse what they send
// and change nothing. This one sends one malformed request of each kind a bug produces — a TTL or
// retention computed from an unset setting, a priority or unit count out of range, a resource
// listed twice, a blank id — and, as an operator script run without the privilege flag or with a
// reason that is only white space (a template padding an empty variable with no-break spaces), a
// force release of the lease it observed on the scope. A correct controller never sends any of
// these, so no other workload reaches the store's refusals (`Rejected`, `Denied`); the history
// checkers judge what a store that did not refuse them let happen (force-release-audited), and the
// shadow model judges every answer.

import type { Command } from '../model/commands.ts';
import { LEASE_TTL_MAX_MS, PRIORITY_LIMIT } from '../model/constants.ts';
import type { Fiber, Journal, Sim } from './engine.ts';
import type { OpSpec } from './plan.ts';

/** The malformed requests, each as the bug that sends it would. */
function malformed(op: OpSpec, client: string): ReadonlyArray<Command> {
  const { scope } = op;
  return [
    { kind: 'Renew', scope, holder: client, expectedToken: 1, ttlMs: 0 },
    { kind: 'Handoff', scope, holder: client, token: 1, newHolder: `${client}:next`, ttlMs: LEASE_TTL_MAX_MS + 1 },
    { kind: 'Enqueue', scope, waiterId: `${op.id}/bad-waiter`, holder: client, priority: PRIORITY_LIMIT + 1 },
    { kind: 'DefineCapacity', scope, capacity: 0 },
    { kind: 'AcquirePermit', scope, permitId: `${op.id}/bad-permit`, holder: client, units: 0, ttlMs: op.ttlMs },
    { kind: 'Reserve', scope, reservationId: `${op.id}/bad-reservation`, owner: client, units: 0, ttlMs: op.ttlMs },
    { kind: 'AcquireAll', scopes: [scope, scope], holder: client, ttlMs: op.ttlMs },
    { kind: 'IdempotencyBegin', tenant: op.tenant, operation: 'api-create', subject: 'subject', key: `${op.id}/key`, digest: 'd', retentionMs: 0, retryAfterTerminal: false },
    { kind: 'SubmitJob', jobId: '', scope },
  ];
}

export async function misbehavingClientJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  const client = fiber.node.proc;
  for (const command of malformed(op, client)) await sim.call(fiber, command);
  await unprivilegedForce(sim, fiber, op);
}

/** An operator script that forces the lease it sees without the privilege, then with a blank reason. */
async function unprivilegedForce(sim: Sim, fiber: Fiber, op: OpSpec): Promise<void> {
  const actor = fiber.node.proc;
  const seen = await sim.call(fiber, { kind: 'Acquire', scope: op.scope, holder: actor, ttlMs: op.ttlMs });
  if (seen?.kind === 'Acquired') {
    await sim.call(fiber, { kind: 'Release', scope: op.scope, holder: actor, token: seen.lease.token });
    return;
  }
  if (seen?.kind !== 'Busy') return;
  const target = { kind: 'ForceRelease' as const, scope: op.scope, expectedToken: seen.token, expectedExpiresAt: seen.expiresAt, actor };
  await sim.call(fiber, { ...target, reason: `holder ${seen.holder} looks stuck`, privileged: false });
  await sim.call(fiber, { ...target, reason: '\u00a0\u2003\t', privileged: true });
}
