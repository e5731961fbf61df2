// The role guard (seed 001 §296–§305): a capability that carries the role and the coordination
// epoch it was assigned under. High-risk mutations take a guard, never a boolean "is leader"
// (§303). A guard cannot be minted locally (§304): its type carries a module-private brand, so
// the only way to get one is `issueRoleGuard`, which derives it from a committed role assignment
// naming this exact node incarnation. The store checks the epoch it carries (§302).

import { assert } from './assert.ts';
import type { RoleGuard as WireGuard } from './commands.ts';
import type { CoordinatedRole, CoordinationState } from './coordination-epoch.ts';
import { incarnationId, sameIncarnation, type NodeIncarnation } from './node-incarnation.ts';

/** Module-private: no other module can name it, so no other module can build a RoleGuard. */
declare const minted: unique symbol;

export interface RoleGuard {
  readonly role: CoordinatedRole;
  readonly epoch: number;
  /** The incarnation the role was assigned to; another process holding this guard is a bug. */
  readonly holder: string;
  readonly [minted]: true;
}

/** Guards issued by this module; a structurally similar object made elsewhere is not among them. */
const issued = new WeakSet<object>();

export type GuardRefusal =
  | { readonly kind: 'NotAssigned'; readonly role: CoordinatedRole }
  | { readonly kind: 'NotOwner'; readonly role: CoordinatedRole; readonly owner: string };

/**
 * Issues the guard for `role` to `holder` from the committed coordination state. Only the exact
 * incarnation named by the assignment gets one: a restarted process of the same node does not
 * (§13), nor does any other node.
 */
export function issueRoleGuard(state: CoordinationState, role: CoordinatedRole, holder: NodeIncarnation): RoleGuard | GuardRefusal {
  const assignment = state.roles.get(role);
  if (assignment === undefined) return { kind: 'NotAssigned', role };
  if (!sameIncarnation(assignment.owner, holder)) return { kind: 'NotOwner', role, owner: incarnationId(assignment.owner) };
  assert(assignment.epoch <= state.epoch, 'a role is never assigned above the coordination epoch');
  const guard = Object.freeze({ role, epoch: assignment.epoch, holder: incarnationId(holder) }) as RoleGuard;
  issued.add(guard);
  return guard;
}

export function isRoleGuard(value: RoleGuard | GuardRefusal): value is RoleGuard {
  return issued.has(value);
}

/** What travels in a store command (`guard` of Acquire and Mutate): role and epoch, nothing else. */
export function wireGuard(guard: RoleGuard): WireGuard {
  assert(issued.has(guard), 'only an issued guard is sent to the store');
  return { role: guard.role, epoch: guard.epoch };
}
