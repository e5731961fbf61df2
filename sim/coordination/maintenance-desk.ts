// Global maintenance (seed 001 §129–§131, §306): the operator's `maintenance` fault sets a state
// that stops some work (NoScheduling stops the scheduler's dispatches, NoReleasePromotion the
// release coordinator's, ReadOnly and FullMaintenance every role's), and after its duration sets
// Normal again. Each change goes through the leader that holds its role and is committed with a
// majority, raising the maintenance epoch, so every daemon's role loop sees one state; a change
// that finds no such leader is retried (a start until the horizon, an end until it is committed).
// Each committed change is recorded as `maintenance-change` `{ epoch, state, by, roleEpoch }`,
// which `maintenance-respected` judges the dispatches against.
//
// The broken desk (`maintenanceThroughConsensus` off) applies a change to the view of the daemon
// that received it (the first running voter that does not lead: the API is served by every
// daemon) and nowhere else; the broken role loop (`honourMaintenance` off) never looks.

import { incarnationId } from '../../model/node-incarnation.ts';
import { gate, NORMAL, ROLE_OPERATION, type Maintenance, type MaintenanceState } from '../../model/maintenance.ts';
import type { CoordinatedRole } from '../../model/coordination-epoch.ts';
import type { Node } from '../engine.ts';
import type { Voter } from './cluster.ts';
import { OPERATOR_RETRY_MS, type OperatorHost } from './operator-host.ts';

export class MaintenanceDesk {
  /** Each daemon's own view, in the broken desk only. */
  private readonly local = new Map<string, Maintenance>();

  constructor(
    private readonly host: OperatorHost,
    private readonly role: CoordinatedRole,
  ) {}

  /** Whether the role loop on `node` must start no new work now. */
  paused(node: Node): boolean {
    const sim = this.host.sim();
    if (!sim.policy.honourMaintenance) return false;
    const view = sim.policy.maintenanceThroughConsensus ? this.host.cluster().committed.maintenance : (this.local.get(node.name) ?? NORMAL);
    return gate(view, ROLE_OPERATION[this.role], view.epoch).kind === 'Blocked';
  }

  /**
   * An operator's request: `state` for `durationMs` (then Normal), or, with null, the end of the
   * window that set maintenance epoch `ends`; an end finds a later change in force and leaves it.
   */
  request(state: MaintenanceState, durationMs: number | null, ends?: number): void {
    const sim = this.host.sim();
    const retry = (): void => {
      if (durationMs === null || sim.now + OPERATOR_RETRY_MS < sim.plan.horizonMs) this.host.later({ kind: 'maintenance', state, durationMs, ...(ends === undefined ? {} : { ends }) }, sim.now + OPERATOR_RETRY_MS);
    };
    if (ends !== undefined && this.epochInForce() !== ends) return;
    const set = sim.policy.maintenanceThroughConsensus ? this.commit(state) : this.setLocally(state);
    if (set === null) return retry();
    sim.fault('maintenance-change', set);
    if (durationMs !== null) this.host.later({ kind: 'maintenance', state: 'Normal', durationMs: null, ends: set.epoch as number }, sim.now + Math.max(1, durationMs));
  }

  /** The maintenance epoch the operator sees: the committed one (in the broken desk, the latest any daemon set). */
  private epochInForce(): number {
    if (this.host.sim().policy.maintenanceThroughConsensus) return this.host.cluster().committed.maintenance.epoch;
    return Math.max(0, ...[...this.local.values()].map((view) => view.epoch));
  }

  private commit(state: MaintenanceState): Readonly<Record<string, unknown>> | null {
    const leader = this.host.leaderWithGuard();
    if (leader === null || leader.guard === null) return null;
    const outcome = this.host.cluster().setMaintenance(leader, state, this.host.links());
    if (outcome.kind !== 'MaintenanceSet') return null;
    return { epoch: outcome.maintenance.epoch, state, by: incarnationId(leader.incarnation), roleEpoch: leader.guard.epoch };
  }

  private setLocally(state: MaintenanceState): Readonly<Record<string, unknown>> | null {
    const cluster = this.host.cluster();
    const running = (voter: Voter): boolean => this.host.links().running(voter.name);
    const voters = [...cluster.voters].sort((a, b) => (a.name < b.name ? -1 : 1));
    const receiver = voters.find((voter) => voter.role !== 'leader' && running(voter)) ?? voters.find(running);
    if (receiver === undefined) return null;
    const view: Maintenance = { state, epoch: (this.local.get(receiver.name) ?? NORMAL).epoch + 1 };
    this.local.set(receiver.name, view);
    return { epoch: view.epoch, state, by: incarnationId(receiver.incarnation), roleEpoch: cluster.committed.roles.get(this.role)?.epoch ?? 0 };
  }
}
