// The coordination service inside the simulator (seed 001 §36–§41, §71–§99): it runs the abstract
// consensus of cluster.ts on the simulator's agenda — randomised election timeouts from the seeded
// PRNG, leader heartbeats whose answers take a network round trip, check-quorum step-down — and
// hands the leader its role guard. It records what checkers need in the history: `leader-change`
// `{ term, epoch, leader, voters, votes }` on every election, `quorum-loss` / `quorum-restored`
// when the voters lose or regain a majority, and the coordination faults it applies.
// Membership: controllers beyond `voters` start outside the cluster. What comes from outside the
// protocol (operators' membership and maintenance requests, public clients' raw proposals,
// impostors, the platform's leader election) is handled by cluster-operations.ts.

import { strict as assert } from 'node:assert';
import { votersOf } from '../../model/cluster-membership.ts';
import type { CoordinatedRole } from '../../model/coordination-epoch.ts';
import { incarnationId } from '../../model/node-incarnation.ts';
import type { RoleGuard } from '../../model/role-guard.ts';
import { EV_COORD, type Node, type SimCoordination, type Sim } from '../engine.ts';
import type { OpSpec } from '../plan.ts';
import type { Stream } from '../prng.ts';
import { Cluster, type Links, type Voter } from './cluster.ts';
import { CoordinationNemesis, type FaultTimer } from './coordination-nemesis.ts';
import type { CoordinationFault } from './faults.ts';
import type { CoordinationOptions } from '../../scenarios/coordination-options.ts';
import type { CoordinationPicture } from '../../model/cluster-doctor.ts';
import { JobTable } from './jobs.ts';
import type { ArtifactStore } from './artifact-store.ts';
import { ClusterOperations } from './cluster-operations.ts';
import { recordMembership } from './membership-requests.ts';
import type { OperatorHost, OperatorTimer } from './operator-host.ts';
import { lead, type RoleAuthority } from './scheduler.ts';

type Timer =
  | { readonly kind: 'election'; readonly node: string; readonly gen: number; readonly timeoutMs: number }
  | { readonly kind: 'heartbeat'; readonly node: string; readonly gen: number }
  | { readonly kind: 'acks'; readonly node: string; readonly gen: number; readonly term: number; readonly acks: number; readonly higherTerm: number | null; readonly sentLocalMs: number }
  | OperatorTimer
  | FaultTimer;

interface TimerState {
  electionGen: number;
  heartbeatGen: number;
  /** Local time at which the leader's last heartbeat round that reached a majority was sent. */
  lastMajorityLocalMs: number;
}

export class CoordinationService implements RoleAuthority, SimCoordination {
  readonly cluster: Cluster;
  readonly jobs: JobTable;
  private readonly operations: ClusterOperations;
  private readonly timers = new Map<string, TimerState>();
  private readonly voterNodes = new Map<string, Node>();
  /** The role guard each node's process held when it last died (null: none). */
  private readonly heldAtCrash = new Map<string, RoleGuard | null>();
  private readonly stream: Stream;
  private readonly links: Links;
  private readonly nemesis: CoordinationNemesis;
  private quorumLost = false;
  private attempts = 0;
  readonly role: CoordinatedRole;
  readonly tickMs: number;
  readonly sendGuards: boolean;

  constructor(
    private readonly sim: Sim,
    readonly options: CoordinationOptions,
  ) {
    const names = sim.controllers.map((node) => node.name);
    assert.ok(names.length >= options.voters, 'the bootstrap voters are controllers');
    const policy = sim.policy;
    this.cluster = new Cluster(names, [options.role], options.voters, { majorityElections: policy.majorityElections, guardEndsWithRole: policy.guardEndsWithRole, learnerFirst: policy.learnerFirst, promoteWhenCaughtUp: policy.promoteWhenCaughtUp, newRoleEpochPerLeader: policy.newRoleEpochPerLeader });
    this.jobs = new JobTable(sim);
    this.operations = new ClusterOperations(this.operator, options.role, (name, loop) => {
      const node = this.node(name);
      this.sim.spawn(node, `${node.proc}:${loop}`, (fiber) => lead(this.sim, this, this.jobs, fiber));
    });
    this.stream = sim.streams.get('coordination');
    this.role = options.role;
    this.tickMs = options.schedulerTickMs;
    this.sendGuards = sim.policy.roleGuard;
    for (const node of sim.controllers) {
      this.timers.set(node.name, { electionGen: 0, heartbeatGen: 0, lastMajorityLocalMs: 0 });
      this.voterNodes.set(node.name, node);
    }
    this.nemesis = new CoordinationNemesis(sim, this.cluster, (name) => this.node(name), () => this.updateQuorum());
    this.links = {
      running: (name) => this.isRunning(this.node(name)),
      connected: (a, b) => this.isRunning(this.node(a)) && this.isRunning(this.node(b)) && !sim.network.isBlocked(a, b) && !sim.network.isBlocked(b, a),
    };
  }

  /** Arms every node's first election timer (a node that is no voter only re-arms it). */
  start(): void {
    if (this.cluster.nodes.length > this.cluster.voters.length) recordMembership(this.sim, this.cluster, 'bootstrap', null, null);
    for (const voter of this.cluster.voters) this.operations.trust.enroll(voter.name);
    for (const voter of this.cluster.nodes) this.armElection(voter, 0);
  }

  submit(op: OpSpec, node: Node): void {
    this.jobs.submit(op, node);
  }

  finish(endMs: number): void {
    this.jobs.finish(endMs);
  }

  nextAttempt(): number {
    this.attempts += 1;
    return this.attempts;
  }

  // ---- the role guard ------------------------------------------------------------------------

  /**
   * The guard of the node's current process: only while it leads, and only while its last
   * majority contact is younger than the step-down window (check-quorum, §74, §197).
   */
  guard(node: Node): RoleGuard | null {
    const voter = this.cluster.voter(node.name);
    // A broken daemon acts on the platform's leader election while it does not lead itself.
    const platform = voter.role === 'leader' ? null : this.operations.platformGuard(node);
    if (platform !== null) return platform;
    if (voter.guard === null || node.down) return null;
    // A guard that outlived its role (a broken policy) is still handed out, by the process that holds it.
    if (!this.sim.policy.guardEndsWithRole) return voter.guard.holder === incarnationId(voter.incarnation) ? voter.guard : null;
    if (voter.role !== 'leader') return null;
    assert.equal(incarnationId(voter.incarnation), node.proc, 'the voter and its node agree on the incarnation');
    if (this.sim.policy.checkQuorum && this.sim.local(node) - this.timer(node.name).lastMajorityLocalMs >= this.options.stepDownMs) return null;
    return voter.guard;
  }

  get artifacts(): ArtifactStore | null {
    return this.operations.artifacts;
  }

  schedulingPaused(node: Node): boolean {
    return this.operations.paused(node);
  }

  leads(node: Node, epoch: number): boolean {
    const voter = this.cluster.voter(node.name);
    if (this.operations.platformGuard(node)?.epoch === epoch) return true;
    return !node.down && voter.role === 'leader' && voter.guard !== null && voter.guard.epoch === epoch && incarnationId(voter.incarnation) === node.proc;
  }

  fenced(node: Node): void {
    this.cluster.stepDown(this.cluster.voter(node.name));
  }

  // ---- incarnations --------------------------------------------------------------------------

  /** The node's process ended (crash, or an unknown outcome retired it): its role ends with it. */
  onRetire(node: Node): void {
    if (!this.voterNodes.has(node.name)) return;
    const voter = this.cluster.voter(node.name);
    // What the process held as it died: only a broken restart (restartIsNewProcess off) reads it.
    this.heldAtCrash.set(node.name, voter.role === 'leader' ? voter.guard : null);
    this.cluster.stepDown(voter);
    const timer = this.timer(node.name);
    timer.electionGen++;
    timer.heartbeatGen++;
  }

  /** A new incarnation starts as a follower with no authority (§12–§13). */
  onRestart(node: Node): void {
    if (!this.voterNodes.has(node.name)) return;
    const voter = this.cluster.voter(node.name);
    this.cluster.restart(voter, this.sim.now);
    assert.equal(incarnationId(voter.incarnation), node.proc, 'a restart gives the voter the node’s new incarnation');
    // A broken node takes itself for the process before it: it resumes that process's role and guard.
    const held = this.heldAtCrash.get(node.name) ?? null;
    if (!this.sim.policy.restartIsNewProcess && held !== null) this.resume(voter, node, held);
    this.armElection(voter, this.sim.now);
  }

  private resume(voter: Voter, node: Node, guard: RoleGuard): void {
    voter.role = 'leader';
    voter.guard = guard;
    this.takeRole(voter, node, voter.term);
  }

  /** A leader's process starts its heartbeats, counting its majority from now, and its role loop. */
  private takeRole(voter: Voter, node: Node, term: number): void {
    const state = this.timer(voter.name);
    state.lastMajorityLocalMs = this.sim.local(node);
    state.heartbeatGen++;
    this.armHeartbeat(voter, node);
    this.sim.spawn(node, `${node.proc}:lead${term}`, (fiber) => lead(this.sim, this, this.jobs, fiber));
  }

  // ---- the agenda ----------------------------------------------------------------------------

  async handle(data: unknown): Promise<void> {
    const timer = data as Timer;
    if (timer.kind === 'heal' || timer.kind === 'resume') {
      this.nemesis.end(timer);
      return;
    }
    if (timer.kind === 'membership' || timer.kind === 'maintenance' || timer.kind === 'wan-heal') return this.operations.handle(timer);
    const node = this.node(timer.node);
    if (node.down) return;
    if (node.pausedUntil > this.sim.now) {
      // A paused process handles its timers when it resumes.
      this.sim.queue.push(node.pausedUntil, EV_COORD, 0, 0, timer);
      return;
    }
    this.updateQuorum();
    const voter = this.cluster.voter(timer.node);
    const state = this.timer(timer.node);
    switch (timer.kind) {
      case 'election':
        if (timer.gen === state.electionGen) this.onElectionTimer(voter, node, timer.timeoutMs);
        return;
      case 'heartbeat':
        if (timer.gen === state.heartbeatGen) this.onHeartbeatTimer(voter, node);
        return;
      case 'acks':
        if (timer.gen === state.heartbeatGen) this.onAcks(voter, timer);
        return;
    }
  }

  private onElectionTimer(voter: Voter, node: Node, timeoutMs: number): void {
    const now = this.sim.now;
    if (!this.cluster.isVoter(voter)) {
      // Not a voter (yet, or any more): it only watches for a promotion.
      this.armElection(voter, now);
      return;
    }
    if (voter.role === 'leader' || voter.lastHeardMs + timeoutMs > now) {
      this.armElection(voter, voter.role === 'leader' ? now : voter.lastHeardMs);
      return;
    }
    const result = this.cluster.elect(voter, now, this.links);
    if (result.kind === 'Elected') {
      this.sim.fault('leader-change', { term: result.term, epoch: result.epoch, leader: result.leader, voters: this.cluster.voters.length, votes: result.votes });
      this.takeRole(voter, node, result.term);
    }
    this.armElection(voter, now);
  }

  private onHeartbeatTimer(voter: Voter, node: Node): void {
    if (voter.role !== 'leader') return;
    const state = this.timer(voter.name);
    const sentLocalMs = this.sim.local(node);
    if (this.sim.policy.checkQuorum && sentLocalMs - state.lastMajorityLocalMs >= this.options.stepDownMs) {
      // No majority for the whole window: the role stops (§74, §294).
      this.cluster.stepDown(voter);
      return;
    }
    const round = this.cluster.heartbeat(voter, this.sim.now, this.links);
    const delays = this.sim.plan.faults;
    const rttMs = this.stream.int(Math.max(1, delays.networkDelayMsMin), Math.max(1, delays.networkDelayMsMax)) * 2;
    this.sim.queue.push(this.sim.now + rttMs, EV_COORD, 0, 0, { kind: 'acks', node: voter.name, gen: state.heartbeatGen, term: round.term, acks: round.acks, higherTerm: round.higherTerm, sentLocalMs } satisfies Timer);
    this.armHeartbeat(voter, node);
  }

  private onAcks(voter: Voter, acks: Extract<Timer, { kind: 'acks' }>): void {
    if (acks.higherTerm !== null) {
      this.cluster.learnTerm(voter, acks.higherTerm);
      return;
    }
    if (voter.role !== 'leader' || voter.term !== acks.term) return;
    if (acks.acks + 1 < this.cluster.majority) return;
    const state = this.timer(voter.name);
    state.lastMajorityLocalMs = Math.max(state.lastMajorityLocalMs, acks.sentLocalMs);
  }

  private armElection(voter: Voter, fromMs: number): void {
    const state = this.timer(voter.name);
    state.electionGen++;
    const timeoutMs = this.stream.int(this.options.electionTimeoutMsMin, this.options.electionTimeoutMsMax);
    const at = Math.max(this.sim.now + 1, fromMs + timeoutMs);
    this.sim.queue.push(at, EV_COORD, 0, 0, { kind: 'election', node: voter.name, gen: state.electionGen, timeoutMs } satisfies Timer);
  }

  private armHeartbeat(voter: Voter, node: Node): void {
    const state = this.timer(voter.name);
    this.sim.queue.push(this.sim.now + node.clock.trueDuration(this.options.heartbeatMs), EV_COORD, 0, 0, { kind: 'heartbeat', node: voter.name, gen: state.heartbeatGen } satisfies Timer);
  }

  /** Records a change of quorum availability (§71–§72, §98). */
  updateQuorum(): void {
    const lost = !this.cluster.quorumAvailable(this.links);
    if (lost === this.quorumLost) return;
    this.quorumLost = lost;
    const reachable = this.cluster.largestReach(this.links);
    if (lost) {
      // A leader stops scheduling within its check-quorum window plus one heartbeat (§74–§75).
      this.sim.fault('quorum-loss', { voters: this.cluster.voters.length, reachable, stepDownBoundMs: this.options.stepDownMs + this.options.heartbeatMs });
    } else {
      this.sim.fault('quorum-restored', { voters: this.cluster.voters.length, reachable });
    }
  }

  /** A fault from outside the protocol (cluster-operations.ts), or the nemesis's: leader crash, pause or isolation, a split of the voters. */
  applyFault(fault: CoordinationFault): void {
    if (!this.operations.apply(fault)) this.nemesis.apply(fault);
  }

  picture(): CoordinationPicture {
    const committed = this.cluster.committed;
    return { roles: [...committed.roles.values()].map((a) => ({ role: a.role, epoch: a.epoch, owner: incarnationId(a.owner) })), voters: votersOf(committed.membership) };
  }

  /** What an operator's request needs of the service (operator-host.ts). */
  private readonly operator: OperatorHost = {
    sim: () => this.sim,
    cluster: () => this.cluster,
    links: () => this.links,
    trust: () => this.operations.trust,
    leaderWithGuard: () => {
      const leader = this.cluster.leader();
      const node = leader === null ? null : this.node(leader.name);
      return leader !== null && node !== null && this.isRunning(node) && this.guard(node) !== null ? leader : null;
    },
    later: (timer, at) => this.sim.queue.push(at, EV_COORD, 0, 0, timer satisfies Timer),
    quorumChanged: () => this.updateQuorum(),
  };

  // ---- helpers -------------------------------------------------------------------------------

  private isRunning(node: Node): boolean {
    return !node.down && node.pausedUntil <= this.sim.now;
  }

  private node(name: string): Node {
    const node = this.voterNodes.get(name);
    assert.ok(node !== undefined, `voter ${name} is a simulated node`);
    return node;
  }

  private timer(name: string): TimerState {
    const state = this.timers.get(name);
    assert.ok(state !== undefined, `voter ${name} has timers`);
    return state;
  }
}
