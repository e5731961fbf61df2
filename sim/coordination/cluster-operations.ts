// What reaches the coordination service from outside its own protocol, in one place: operators'
// requests through the typed cluster service (membership-requests.ts, maintenance-desk.ts), public
// clients' raw proposals (public-api.ts), processes that claim a voter's name (peer-trust.ts), the
// platform's own leader election (orchestrator-lease.ts), the artifact store's outages
// (artifact-store.ts), and cuts of the links between regions (regions.ts). The service hands each such fault
// and agenda entry here, and asks here whether maintenance stops a role loop and whether a broken
// daemon believes the platform.

import { ArtifactStore } from './artifact-store.ts';
import type { CoordinatedRole } from '../../model/coordination-epoch.ts';
import type { RoleGuard } from '../../model/role-guard.ts';
import type { Node } from '../engine.ts';
import type { CoordinationFault } from './faults.ts';
import { MaintenanceDesk } from './maintenance-desk.ts';
import { applyMembership } from './membership-requests.ts';
import type { OperatorHost, OperatorTimer } from './operator-host.ts';
import { OrchestratorLease } from './orchestrator-lease.ts';
import { PeerTrust } from './peer-trust.ts';
import { rawProposal } from './public-api.ts';
import { cutRegions, healRegions, regionsOf } from './regions.ts';

export class ClusterOperations {
  readonly trust: PeerTrust;
  /** The artifact store, in runs whose jobs have artifacts (`coordination.artifacts`). */
  readonly artifacts: ArtifactStore | null;
  private readonly platform: OrchestratorLease;
  private readonly maintenance: MaintenanceDesk;

  constructor(
    private readonly host: OperatorHost,
    private readonly role: CoordinatedRole,
    /** Starts a role loop on the named node's process (a broken daemon that believes the platform). */
    private readonly startRoleLoop: (node: string, process: string) => void,
  ) {
    const sim = host.sim();
    this.trust = PeerTrust.forPlan(sim, sim.policy);
    this.platform = new OrchestratorLease(sim, host.cluster(), role);
    this.maintenance = new MaintenanceDesk(host, role);
    this.artifacts = sim.plan.coordination?.artifacts === true ? new ArtifactStore(sim) : null;
  }

  /** Applies a fault that comes from outside the protocol; false for the nemesis's own kinds. */
  apply(fault: CoordinationFault): boolean {
    const running = (name: string): boolean => this.host.links().running(name);
    switch (fault.f) {
      case 'member-add':
      case 'member-promote':
      case 'member-remove':
        applyMembership(this.host, fault);
        return true;
      case 'impostor':
        this.trust.impostor(this.host.cluster(), fault.credential, this.host.sim().now, running);
        return true;
      case 'orchestrator-lease': {
        const named = this.platform.name(fault.durationMs, running);
        if (named !== null) this.startRoleLoop(named, `platform-lead${this.platform.believed}`);
        return true;
      }
      case 'maintenance':
        this.maintenance.request(fault.state, fault.durationMs);
        return true;
      case 'raw-proposal':
        rawProposal(this.host, this.role);
        return true;
      case 'cas-outage':
        this.artifacts?.outage(fault.durationMs);
        return true;
      case 'wan-partition': {
        const sim = this.host.sim();
        const options = sim.plan.coordination!;
        const voters = this.host.cluster().voters.map((voter) => voter.name);
        const pairs = cutRegions(sim, regionsOf(sim, options.voters, options.regions), voters, fault.durationMs);
        if (pairs.length > 0) this.host.later({ kind: 'wan-heal', pairs }, sim.now + Math.max(1, fault.durationMs));
        this.host.quorumChanged();
        return true;
      }
      default:
        return false;
    }
  }

  /** An operator's request put back on the agenda (a retry, or the end of a window). */
  handle(timer: OperatorTimer): void {
    if (timer.kind === 'membership') applyMembership(this.host, timer.fault);
    else if (timer.kind === 'maintenance') this.maintenance.request(timer.state, timer.durationMs, timer.ends);
    else {
      healRegions(this.host.sim(), timer.pairs);
      this.host.quorumChanged();
    }
  }

  /** Whether the maintenance state stops the role loop on `node` now. */
  paused(node: Node): boolean {
    return this.maintenance.paused(node);
  }

  /** The guard a broken daemon holds by the platform's lease, or null. */
  platformGuard(node: Node): RoleGuard | null {
    return this.platform.guardOf(node);
  }
}
