// The coordination state machine (seed 001 §22–§26, §41–§45): the small, deterministic state that
// the consensus layer commits in one agreed order. It holds the term of the current leader, the
// monotonic coordination epoch, the role assignments made under it and the maintenance state.
// Business state stays in the store; only ownership and epochs live here (§1, §6).

import { assert } from './assert.ts';
import { NORMAL, setMaintenance, type Maintenance, type MaintenanceState } from './maintenance.ts';
import { incarnationId, type NodeIncarnation } from './node-incarnation.ts';

/** Roles the coordination leader assigns (§42), named as the store's `guard.role`. */
export const COORDINATED_ROLES = ['scheduler', 'release-coordinator', 'deployment-coordinator'] as const;
export type CoordinatedRole = (typeof COORDINATED_ROLES)[number];

/** `RoleEpoch` of §43: the role, the coordination epoch it was assigned under, and its owner. */
export interface RoleAssignment {
  readonly role: CoordinatedRole;
  readonly epoch: number;
  readonly owner: NodeIncarnation;
}

export interface CoordinationState {
  /** Term of the last elected leader (§22); 0 before the first election. */
  readonly term: number;
  /** Coordination epoch (§23): raised by every leadership change, never lowered or reused. */
  readonly epoch: number;
  readonly leader: NodeIncarnation | null;
  readonly roles: ReadonlyMap<CoordinatedRole, RoleAssignment>;
  readonly maintenance: Maintenance;
}

export function initialCoordination(): CoordinationState {
  return { term: 0, epoch: 0, leader: null, roles: new Map(), maintenance: NORMAL };
}

export type CoordinationCommand =
  /** A leader won `term`: the epoch is bumped and every listed role is assigned to it (§41, §83). */
  | { readonly kind: 'ElectLeader'; readonly term: number; readonly leader: NodeIncarnation; readonly roles: ReadonlyArray<CoordinatedRole> }
  | { readonly kind: 'SetMaintenance'; readonly state: MaintenanceState; readonly expectedEpoch: number };

export type CoordinationOutcome =
  | { readonly kind: 'LeaderElected'; readonly term: number; readonly epoch: number; readonly leader: string }
  | { readonly kind: 'StaleTerm'; readonly currentTerm: number }
  | { readonly kind: 'MaintenanceSet'; readonly maintenance: Maintenance }
  | { readonly kind: 'StaleMaintenanceEpoch'; readonly currentEpoch: number };

export interface CoordinationTransition {
  readonly state: CoordinationState;
  readonly outcome: CoordinationOutcome;
}

/** Applies one committed command. A term at or below the committed one is stale (§22, §89). */
export function applyCoordination(state: CoordinationState, command: CoordinationCommand): CoordinationTransition {
  switch (command.kind) {
    case 'ElectLeader': {
      if (command.term <= state.term) return { state, outcome: { kind: 'StaleTerm', currentTerm: state.term } };
      const epoch = state.epoch + 1;
      const roles = new Map(state.roles);
      for (const role of command.roles) roles.set(role, { role, epoch, owner: command.leader });
      const next: CoordinationState = { ...state, term: command.term, epoch, leader: command.leader, roles };
      assert(next.epoch > state.epoch, 'a leadership change raises the coordination epoch');
      assert(next.term > state.term, 'terms only grow');
      return { state: next, outcome: { kind: 'LeaderElected', term: command.term, epoch, leader: incarnationId(command.leader) } };
    }
    case 'SetMaintenance': {
      const change = setMaintenance(state.maintenance, command.state, command.expectedEpoch);
      if (change.kind === 'StaleMaintenanceEpoch') return { state, outcome: change };
      return { state: { ...state, maintenance: change.maintenance }, outcome: change };
    }
  }
}
