// Cluster membership (seed 001 §15–§20, §59–§66, §157, §225–§233): which nodes vote, which only
// follow the log, and which were removed. A node joins as a learner and is promoted to voter only
// after it caught up (§62–§63, "no direct voter join"); a removed node never comes back under the
// same id (§64–§65, §215). Every change is one committed configuration with a new version, made by
// the leader that proposed it and recorded with who asked (§227).

export type MemberRole = 'voter' | 'learner';

export interface Membership {
  /** Configuration version (§20): raised by every committed change, never reused. */
  readonly version: number;
  readonly roles: ReadonlyMap<string, MemberRole>;
  /** Node ids removed for good. */
  readonly removed: ReadonlySet<string>;
}

export type MembershipChange =
  | { readonly kind: 'add-learner'; readonly node: string }
  | { readonly kind: 'promote'; readonly node: string }
  | { readonly kind: 'remove'; readonly node: string };

export type MembershipRejection = 'already-member' | 'removed-for-good' | 'not-a-learner' | 'not-a-member' | 'last-voter' | 'not-caught-up';

export type MembershipOutcome =
  | { readonly kind: 'MembershipChanged'; readonly membership: Membership }
  | { readonly kind: 'MembershipRejected'; readonly reason: MembershipRejection };

export function initialMembership(voters: ReadonlyArray<string>): Membership {
  return { version: 0, roles: new Map(voters.map((name) => [name, 'voter'] as const)), removed: new Set() };
}

export function votersOf(membership: Membership): ReadonlyArray<string> {
  return [...membership.roles].filter(([, role]) => role === 'voter').map(([name]) => name).sort();
}

export function learnersOf(membership: Membership): ReadonlyArray<string> {
  return [...membership.roles].filter(([, role]) => role === 'learner').map(([name]) => name).sort();
}

export function isVoter(membership: Membership, node: string): boolean {
  return membership.roles.get(node) === 'voter';
}

/**
 * Applies one change. `caughtUp` says whether the node to promote has the committed state (the
 * caller knows the replication progress; the model only enforces that it was checked, §62).
 */
export function changeMembership(membership: Membership, change: MembershipChange, caughtUp = true): MembershipOutcome {
  const role = membership.roles.get(change.node);
  const reject = (reason: MembershipRejection): MembershipOutcome => ({ kind: 'MembershipRejected', reason });
  const roles = new Map(membership.roles);
  let removed = membership.removed;
  switch (change.kind) {
    case 'add-learner':
      if (membership.removed.has(change.node)) return reject('removed-for-good');
      if (role !== undefined) return reject('already-member');
      roles.set(change.node, 'learner');
      break;
    case 'promote':
      if (role !== 'learner') return reject('not-a-learner');
      if (!caughtUp) return reject('not-caught-up');
      roles.set(change.node, 'voter');
      break;
    case 'remove':
      if (role === undefined) return reject('not-a-member');
      if (role === 'voter' && votersOf(membership).length === 1) return reject('last-voter');
      roles.delete(change.node);
      removed = new Set([...membership.removed, change.node]);
      break;
  }
  return { kind: 'MembershipChanged', membership: { version: membership.version + 1, roles, removed } };
}
