// The cluster doctor's consistency checks (seed 001 §241–§244), pure: what the store holds against
// what the coordination layer committed. The store's epoch for a role is never ahead of the
// coordination epoch of that role (§243: "current scheduler epoch in coordination state >= any
// persisted lease creation epoch"), and a role is never owned by a node that is not a voter
// (§244: "role owner node removed"). Both are critical: the first means the coordination state
// went back, the second that authority outlived membership.

import type { CoordinatedRole } from './coordination-epoch.ts';

export interface CoordinationPicture {
  /** The committed role assignments: each role's epoch and the incarnation that owns it (`c2#1`). */
  readonly roles: ReadonlyArray<{ readonly role: CoordinatedRole | string; readonly epoch: number; readonly owner: string }>;
  /** The voters of the committed configuration, by node. */
  readonly voters: ReadonlyArray<string>;
}

export interface ClusterFinding {
  readonly check: 'db-epoch-ahead' | 'role-owner-not-voter';
  readonly message: string;
}

export function clusterDoctor(storeRoleEpochs: ReadonlyArray<{ readonly role: string; readonly epoch: number }>, picture: CoordinationPicture): ReadonlyArray<ClusterFinding> {
  const findings: ClusterFinding[] = [];
  for (const stored of storeRoleEpochs) {
    const committed = picture.roles.find((r) => r.role === stored.role)?.epoch ?? 0;
    if (stored.epoch > committed) findings.push({ check: 'db-epoch-ahead', message: `the store holds epoch ${stored.epoch} for role ${stored.role}, the coordination state ${committed}` });
  }
  for (const assignment of picture.roles) {
    const node = assignment.owner.split('#')[0]!;
    if (!picture.voters.includes(node)) findings.push({ check: 'role-owner-not-voter', message: `role ${assignment.role} (epoch ${assignment.epoch}) is owned by ${assignment.owner}, whose node ${node} is not a voter` });
  }
  return findings;
}
