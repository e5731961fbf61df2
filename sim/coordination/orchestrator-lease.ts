// The platform's leader election beside the coordination layer (seed 001 §202–§204: running on
// Kubernetes does not make Kubernetes leader election the authority; it could be a deployment
// optimisation, never the core one). The `orchestrator-lease` fault names a daemon that does not
// lead as the platform's leader for a while. A correct daemon records it and takes its roles from
// the coordination epochs alone. A broken one (`rolesFromCoordinationOnly` off) believes the
// platform: it acts as the role's owner under the epoch it knows, and starts the role loop. The
// checkers that judge who may use an epoch (fenced-stale-leader: a guard is used only by the
// incarnation that won its epoch) then see two processes under one epoch.

import type { CoordinatedRole } from '../../model/coordination-epoch.ts';
import { incarnationId } from '../../model/node-incarnation.ts';
import { issueRoleGuard, isRoleGuard, type RoleGuard } from '../../model/role-guard.ts';
import type { Node, Sim } from '../engine.ts';
import type { Cluster } from './cluster.ts';

interface Named {
  readonly node: string;
  readonly process: string;
  readonly until: number;
  readonly guard: RoleGuard;
}

export class OrchestratorLease {
  private named: Named | null = null;
  /** How many leases a daemon believed: each starts a role loop of its own. */
  believed = 0;

  constructor(
    private readonly sim: Sim,
    private readonly cluster: Cluster,
    private readonly role: CoordinatedRole,
  ) {}

  /**
   * The platform names the first running voter that does not lead, for `durationMs`. Returns the
   * name of a daemon that believes it and now takes the role, or null.
   */
  name(durationMs: number, running: (node: string) => boolean): string | null {
    const voters = [...this.cluster.voters].sort((a, b) => (a.name < b.name ? -1 : 1));
    const chosen = voters.find((voter) => voter.role !== 'leader' && running(voter.name));
    if (chosen === undefined) return null;
    this.sim.fault('orchestrator-lease', { node: chosen.name, durationMs });
    if (this.sim.policy.rolesFromCoordinationOnly) return null;
    // The broken daemon takes the platform's word for the committed assignment of its role.
    const committed = this.cluster.committed;
    const assignment = committed.roles.get(this.role);
    if (assignment === undefined) return null;
    const believed = { ...committed, roles: new Map([...committed.roles, [this.role, { ...assignment, owner: chosen.incarnation }]]) };
    const guard = issueRoleGuard(believed, this.role, chosen.incarnation);
    if (!isRoleGuard(guard)) return null;
    this.named = { node: chosen.name, process: incarnationId(chosen.incarnation), until: this.sim.now + durationMs, guard };
    this.believed += 1;
    return chosen.name;
  }

  /** The guard a daemon holds by the platform's lease: only a broken one, only while the lease lasts. */
  guardOf(node: Node): RoleGuard | null {
    const named = this.named;
    if (named === null || named.node !== node.name || named.process !== node.proc || node.down || this.sim.now >= named.until) return null;
    return named.guard;
  }
}
