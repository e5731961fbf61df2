// The coordination state machine (seed 001 §22–§26, §41–§45): the small, deterministic state that
// the consensus layer commits in one agreed order. It holds the term of the current leader, the
// monotonic coordination epoch, the role assignments made under it, the maintenance state and the
// cluster membership (model/cluster-membership.ts).
// Business state stays in the store; only ownership and epochs live here (§1, §6).

import { assert } from './assert.ts';
import { changeMembership, initialMembership, isVoter, type Membership, type MembershipChange, type MembershipRejection } from './cluster-membership.ts';
import type { CoordinatedRole } from './coordinated-role.ts';
import { NORMAL, setMaintenance, type Maintenance, type MaintenanceState } from './maintenance.ts';
import { incarnationId, type NodeIncarnation } from './node-incarnation.ts';

/** Roles the coordination leader assigns (§42): declared in coordinated-role.ts, which maintenance.ts reads too. */
export { COORDINATED_ROLES, type CoordinatedRole } from './coordinated-role.ts';

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
  readonly membership: Membership;
}

/** Before the first election, with `voters` as the bootstrap configuration (§60). */
export function initialCoordination(voters: ReadonlyArray<string>): CoordinationState {
  return { term: 0, epoch: 0, leader: null, roles: new Map(), maintenance: NORMAL, membership: initialMembership(voters) };
}

export type CoordinationCommand =
  /** A leader won `term`: the epoch is bumped and every listed role is assigned to it (§41, §83). */
  | { readonly kind: 'ElectLeader'; readonly term: number; readonly leader: NodeIncarnation; readonly roles: ReadonlyArray<CoordinatedRole> }
  | { readonly kind: 'SetMaintenance'; readonly state: MaintenanceState; readonly expectedEpoch: number }
  /**
   * A membership change proposed by the leader of `term` (§157, §225). Removing the node of the
   * current leader ends its leadership and every role it owns with the commit (§64, §244).
   */
  | { readonly kind: 'ChangeMembership'; readonly term: number; readonly change: MembershipChange; readonly caughtUp: boolean };

export type CoordinationOutcome =
  | { readonly kind: 'LeaderElected'; readonly term: number; readonly epoch: number; readonly leader: string }
  | { readonly kind: 'StaleTerm'; readonly currentTerm: number }
  /** Only a voter of the committed configuration can lead (§16–§17, §216). */
  | { readonly kind: 'NotAVoter'; readonly node: string }
  | { readonly kind: 'MaintenanceSet'; readonly maintenance: Maintenance }
  | { readonly kind: 'StaleMaintenanceEpoch'; readonly currentEpoch: number }
  | { readonly kind: 'MembershipChanged'; readonly membership: Membership; readonly leaderRemoved: boolean }
  | { readonly kind: 'MembershipRejected'; readonly reason: MembershipRejection | 'stale-term' };

export interface CoordinationTransition {
  readonly state: CoordinationState;
  readonly outcome: CoordinationOutcome;
}

/** Applies one committed command. A term at or below the committed one is stale (§22, §89). */
export function applyCoordination(state: CoordinationState, command: CoordinationCommand): CoordinationTransition {
  switch (command.kind) {
    case 'ElectLeader': {
      if (command.term <= state.term) return { state, outcome: { kind: 'StaleTerm', currentTerm: state.term } };
      if (!isVoter(state.membership, command.leader.node)) return { state, outcome: { kind: 'NotAVoter', node: command.leader.node } };
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
    case 'ChangeMembership': {
      if (command.term !== state.term) return { state, outcome: { kind: 'MembershipRejected', reason: 'stale-term' } };
      const changed = changeMembership(state.membership, command.change, command.caughtUp);
      if (changed.kind === 'MembershipRejected') return { state, outcome: changed };
      const leaderRemoved = command.change.kind === 'remove' && state.leader !== null && state.leader.node === command.change.node;
      const roles = new Map([...state.roles].filter(([, assignment]) => assignment.owner.node !== (command.change.kind === 'remove' ? command.change.node : null)));
      const next: CoordinationState = { ...state, membership: changed.membership, roles, ...(leaderRemoved ? { leader: null } : {}) };
      return { state: next, outcome: { kind: 'MembershipChanged', membership: changed.membership, leaderRemoved } };
    }
  }
}
