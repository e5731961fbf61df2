// A leader taking over a role (seed 001 §34–§35, §92–§95, §296–§303; seed 000 §228–§240): it was
// elected with an epoch, loads its state, then writes its epoch to the store (AdvanceRoleEpoch)
// before it acts. A leader slowed or paused between its election and that write finds a newer
// leader's epoch there (Fenced): it has been deposed and steps down. One that is not deposed
// first reopens any scope its predecessor may have left blocked for reconciliation (ReconcileScope;
// a scope nobody blocked answers NotBlocked), then takes the scope's lease under its role guard.
// Its requests go over a transport that delivers them twice (sim/redelivery.ts).

import type { Fiber, Journal, Sim } from './engine.ts';
import { holderName } from './controller-world.ts';
import { redelivered } from './redelivery.ts';

export async function roleTakeoverJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  const role = `leader/${op.tenant}/${op.aggregate}`;
  // The election orders leaders by when they won it: the epoch stands for the consensus term, which
  // a controller is told, not a clock it reads (the store never compares it with time).
  const epoch = sim.now + 1;
  await sim.sleepLocal(fiber, Math.floor(op.workMs / 2));
  const advanced = await redelivered(sim, fiber, { kind: 'AdvanceRoleEpoch', role, epoch });
  if (advanced.first?.kind !== 'RoleEpochAdvanced' || advanced.again?.kind !== 'RoleEpochAdvanced') return;
  await redelivered(sim, fiber, { kind: 'ReconcileScope', scope: op.scope, actor: fiber.node.proc });
  const holder = holderName(sim, fiber.node);
  const r = await sim.call(fiber, { kind: 'Acquire', scope: op.scope, holder, ttlMs: op.ttlMs, guard: { role, epoch } });
  if (r?.kind !== 'Acquired') return;
  await sim.sleepLocal(fiber, Math.floor(op.workMs / 2));
  await sim.call(fiber, { kind: 'Release', scope: op.scope, holder, token: r.lease.token });
}
