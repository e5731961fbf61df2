// Message-level consensus in the simulator (`coordination.consensus: 'raft'`; seed 001 §55,
// §66–§74, §83, §283): every controller runs a Raft node (raft-node.ts) over the simulated
// network, the bootstrap voters first and the others as operators add them (raft-membership.ts).
// Each RequestVote and AppendEntries, and each answer, is a one-way message with its own delay,
// lost on a cut link or at `coordination.faults.messageLossPct`, held back and so reordered, and
// duplicated at `messageDuplicatePct`. A leader's first entry is its ElectLeader command; the
// coordination epoch and the role guard exist once that entry is committed and the leader applied
// it (§83), and end with the leadership or the check-quorum window (§74). Above the consensus runs
// the business layer of the abstract service (coordination/scheduler.ts).
// The history gets `leader-change` when a leader's epoch is committed, and the ground truth the
// Raft checkers read: `raft-elected` `{ term, node, process, votes, log }` (`log`: the terms of the
// winner's entries, null where a snapshot replaced them), `raft-applied` `{ node, process, index,
// term, leader, version, command? }`, `raft-snapshot`, `raft-cluster` `{ voters, version,
// snapshotEntries? }` first, and `raft-unreadable` when a binary cannot read a committed entry.

import { strict as assert } from 'node:assert';
import { ARTIFACT_BYTES, artifactDigest } from '../coordination/artifact-store.ts';
import { incarnationId, restarted, firstIncarnation, type NodeIncarnation } from '../../model/node-incarnation.ts';
import { issueRoleGuard, isRoleGuard, type RoleGuard } from '../../model/role-guard.ts';
import type { CoordinatedRole, CoordinationState } from '../../model/coordination-epoch.ts';
import type { CoordinationOptions } from '../../scenarios/coordination-options.ts';
import type { Node, SimCoordination, Sim } from '../engine.ts';
import type { OpSpec } from '../plan.ts';
import type { Stream } from '../prng.ts';
import { CoordinationNemesis } from '../coordination/coordination-nemesis.ts';
import { RaftAgenda, type RaftTimer } from './raft-agenda.ts';
import type { CoordinationFault } from '../coordination/faults.ts';
import { JobTable } from '../coordination/jobs.ts';
import { lead, type RoleAuthority } from '../coordination/scheduler.ts';
import { RaftFaults } from './raft-faults.ts';
import type { CoordinationPicture } from '../../model/cluster-doctor.ts';
import { votersOf } from '../../model/cluster-membership.ts';
import { stateAt } from './raft-config.ts';
import { RaftMembership } from './raft-membership.ts';
import { RaftNode } from './raft-node.ts';
import { CORRECT_RAFT, type RaftMessage, type RaftRules, type Step } from './raft-protocol.ts';
import { knownTerms, lastIndex } from '../../model/raft-log.ts';

interface Seat {
  readonly raft: RaftNode;
  readonly node: Node;
  incarnation: NodeIncarnation;
  electionGen: number;
  heartbeatGen: number;
  /** True time this node last heard a leader of its term, or granted a vote. */
  lastHeardMs: number;
  /** A leader's last answer from each follower, in true time (check-quorum). */
  readonly answered: Map<string, number>;
  /** The guard of the epoch this process's leadership committed; null until then. */
  guard: RoleGuard | null;
  /** A leader has appended its ElectLeader entry (at its second heartbeat). */
  proposed: boolean;
}

export class RaftService implements RoleAuthority, SimCoordination {
  readonly jobs: JobTable;
  readonly role: CoordinatedRole;
  readonly tickMs: number;
  readonly sendGuards: boolean;
  private readonly seats = new Map<string, Seat>();
  private readonly stream: Stream;
  private readonly nemesis: CoordinationNemesis;
  private attempts = 0;
  private readonly faults: RaftFaults;
  private readonly agenda: RaftAgenda;
  private readonly membership: RaftMembership;

  constructor(
    private readonly sim: Sim,
    readonly options: CoordinationOptions,
  ) {
    const voters = sim.controllers.slice(0, options.voters).map((node) => node.name);
    const rules = Object.fromEntries(Object.keys(CORRECT_RAFT).map((rule) => [rule, sim.policy[rule as keyof RaftRules]])) as unknown as RaftRules;
    // Every controller runs a Raft node; those beyond the bootstrap voters join only as an operator adds them.
    for (const node of sim.controllers) {
      this.seats.set(node.name, { raft: new RaftNode(node.name, voters, rules, options.snapshotEntries), node, incarnation: firstIncarnation(node.name), electionGen: 0, heartbeatGen: 0, lastHeardMs: 0, answered: new Map(), guard: null, proposed: false });
    }
    this.jobs = new JobTable(sim);
    this.stream = sim.streams.get('raft');
    this.agenda = new RaftAgenda(sim, options, this.stream);
    this.role = options.role;
    this.tickMs = options.schedulerTickMs;
    this.sendGuards = sim.policy.roleGuard;
    const cluster = { leader: () => this.leaderSeat(), voters: [...this.seats.values()].map((seat) => ({ name: seat.raft.name })) };
    this.nemesis = new CoordinationNemesis(sim, cluster, (name) => this.seat(name).node, () => undefined);
    this.membership = new RaftMembership(sim, () => this.leaderWithRole(), (fault, at) => this.agenda.at(at, { kind: 'raft-membership', fault }));
    this.faults = new RaftFaults(sim, options, this.stream, this.nemesis, this.seats, { stopRole: (seat) => this.stepDown(seat as Seat), send: (message) => this.agenda.send(message) });
  }

  start(): void {
    const compaction = this.options.snapshotEntries > 0 ? { snapshotEntries: this.options.snapshotEntries } : {};
    const voters = this.sim.controllers.slice(0, this.options.voters).map((node) => node.name);
    this.sim.fault('raft-cluster', { voters, version: 1, ...compaction });
    if (this.seats.size > voters.length) this.sim.fault('membership-change', { version: 0, change: 'bootstrap', node: null, voters, learners: [], by: null });
    for (const seat of this.seats.values()) this.agenda.armElection(seat, 0);
  }

  submit(op: OpSpec, node: Node): void {
    this.jobs.submit(op, node);
  }

  finish(endMs: number): void {
    this.jobs.finish(endMs);
  }

  nextAttempt(): number {
    return ++this.attempts;
  }

  // ---- the role guard ------------------------------------------------------------------------

  guard(node: Node): RoleGuard | null {
    const seat = this.seats.get(node.name);
    if (seat === undefined || node.down || seat.guard === null || seat.raft.role !== 'leader') return null;
    if (seat.guard.holder !== node.proc) return null;
    return this.majorityRecently(seat) ? seat.guard : null;
  }

  leads(node: Node, epoch: number): boolean {
    const seat = this.seats.get(node.name);
    return seat !== undefined && !node.down && seat.raft.role === 'leader' && seat.guard !== null && seat.guard.epoch === epoch && seat.guard.holder === node.proc;
  }

  /** A job's lease was created; a leader that keeps business rows or artifact bytes in the log (a broken rule) appends them there. */
  dispatched(node: Node, scope: string, jobId: string): void {
    const seat = this.seats.get(node.name);
    if (seat === undefined || seat.raft.role !== 'leader') return;
    const entry = { term: seat.raft.term, leader: seat.incarnation, version: seat.raft.commandVersion() };
    if (!this.sim.policy.jobsStayInStore) seat.raft.propose({ kind: 'RecordJob', scope, ...entry });
    if (!this.sim.policy.artifactsStayInCas) seat.raft.propose({ kind: 'StoreArtifact', digest: artifactDigest(jobId), bytes: ARTIFACT_BYTES, ...entry });
  }

  fenced(node: Node): void {
    const seat = this.seats.get(node.name);
    if (seat !== undefined) this.stepDown(seat);
  }

  // ---- incarnations --------------------------------------------------------------------------

  onRetire(node: Node): void {
    const seat = this.seats.get(node.name);
    if (seat === undefined) return;
    this.stepDown(seat);
    seat.electionGen++;
    seat.heartbeatGen++;
  }

  onRestart(node: Node): void {
    const seat = this.seats.get(node.name);
    if (seat === undefined) return;
    seat.raft.restart();
    seat.incarnation = restarted(seat.incarnation);
    assert.equal(incarnationId(seat.incarnation), node.proc, 'a restart gives the voter the node’s new incarnation');
    seat.lastHeardMs = this.sim.now;
    this.agenda.armElection(seat, this.sim.now);
  }

  /**
   * The committed coordination state as the cluster gives it now: the state of a leader that holds
   * its role (it applied every entry committed before its own). Without one, the most advanced
   * state any node applied in the run: a restart loses what a node applied, not what was committed.
   */
  picture(): CoordinationPicture {
    const leading = [...this.seats.values()].find((seat) => this.guard(seat.node) !== null);
    const applied = leading?.raft.applied ?? this.furthest?.state ?? [...this.seats.values()][0]!.raft.applied;
    return { roles: [...applied.roles.values()].map((a) => ({ role: a.role, epoch: a.epoch, owner: incarnationId(a.owner) })), voters: votersOf(applied.membership) };
  }

  private furthest: { readonly index: number; readonly state: CoordinationState } | null = null;

  applyFault(fault: CoordinationFault): void {
    if (fault.f === 'member-add' || fault.f === 'member-promote' || fault.f === 'member-remove') this.membership.request(fault);
    else if (fault.f === 'voter-state-loss') this.faults.loseState(fault.node, fault.downMs);
    else if (fault.f === 'voter-upgrade') this.faults.upgrade(fault.node, fault.downMs);
    else if (fault.f === 'leader-transfer') this.faults.transfer();
    else this.nemesis.apply(fault);
  }

  // ---- the agenda ----------------------------------------------------------------------------

  async handle(data: unknown): Promise<void> {
    const timer = data as RaftTimer;
    if (timer.kind === 'heal' || timer.kind === 'resume') return this.nemesis.end(timer);
    if (timer.kind === 'raft-membership') return this.membership.request(timer.fault);
    const seat = this.seat(timer.kind === 'raft-message' ? timer.message.to : timer.node);
    if (seat.node.down) return;
    if (seat.node.pausedUntil > this.sim.now) {
      // A paused process handles what reached it when it resumes.
      this.agenda.at(seat.node.pausedUntil, timer);
      return;
    }
    switch (timer.kind) {
      case 'raft-message':
        return this.deliver(seat, timer.message);
      case 'raft-election':
        if (timer.gen === seat.electionGen) this.onElectionTimer(seat, timer.timeoutMs);
        return;
      case 'raft-heartbeat':
        if (timer.gen === seat.heartbeatGen) this.onHeartbeatTimer(seat);
        return;
      case 'raft-crash':
        if (seat.raft.role === 'leader' && seat.raft.term === timer.term) this.faults.crash(seat);
        return;
    }
  }

  private deliver(seat: Seat, message: RaftMessage): void {
    // A message sent to an earlier process of the node still reaches the node: Raft state is the node's.
    if (message.type === 'append-reply' && message.term === seat.raft.term) seat.answered.set(message.from, this.sim.now);
    const was = seat.raft.role;
    this.act(seat, seat.raft.receive(message));
    if (was === 'leader' && seat.raft.role !== 'leader') this.stepDown(seat);
    if (was !== 'candidate' && seat.raft.role === 'candidate') {
      // Told to stand now (a leader transfer): it asks again each heartbeat, as after a timeout.
      seat.lastHeardMs = this.sim.now;
      seat.heartbeatGen++;
      this.agenda.armHeartbeat(seat);
    }
  }

  private onElectionTimer(seat: Seat, timeoutMs: number): void {
    const now = this.sim.now;
    if (seat.raft.role === 'leader' || seat.raft.abstains || seat.lastHeardMs + timeoutMs > now) {
      this.agenda.armElection(seat, seat.raft.role === 'leader' ? now : seat.lastHeardMs);
      return;
    }
    seat.lastHeardMs = now;
    this.act(seat, seat.raft.startElection());
    if (seat.raft.role === 'candidate') {
      seat.heartbeatGen++;
      this.agenda.armHeartbeat(seat);
    }
    this.agenda.armElection(seat, now);
  }

  private onHeartbeatTimer(seat: Seat): void {
    if (seat.raft.role === 'candidate') {
      // A candidate asks again, each heartbeat interval, the voters that have not answered yes.
      this.act(seat, seat.raft.heartbeat());
      this.agenda.armHeartbeat(seat);
      return;
    }
    if (seat.raft.role !== 'leader') return;
    if (this.sim.policy.checkQuorum && !this.majorityRecently(seat)) {
      // No majority answered for the whole window: the leadership stops (§74, §294).
      this.stepDown(seat);
      seat.raft.stepDown();
      return;
    }
    if (!seat.proposed) {
      seat.proposed = true;
      seat.raft.propose({ kind: 'ElectLeader', term: seat.raft.term, leader: seat.incarnation, roles: [this.role], version: seat.raft.commandVersion() });
      this.faults.maybeIsolate(seat);
      // A leader that acts before its entry is committed takes its role from its own log now.
      if (!this.sim.policy.guardAfterCommit) this.takeRole(seat, stateAt(seat.raft.log, seat.raft.snapshot));
      // A single voter is its own majority: its entry is committed at once.
      if (seat.raft.majority === 1) this.act(seat, seat.raft.receive({ type: 'append-reply', from: seat.raft.name, to: seat.raft.name, term: seat.raft.term, success: true, matchIndex: lastIndex(seat.raft.log), version: seat.raft.version }));
    }
    this.act(seat, seat.raft.heartbeat());
    this.agenda.armHeartbeat(seat);
  }

  /** Sends what a step asks, records what it did, and starts a leadership it won. */
  private act(seat: Seat, step: Step): void {
    if (step.heardLeader === true) seat.lastHeardMs = this.sim.now;
    if (step.elected !== undefined) this.elected(seat, step.elected);
    for (const message of step.send) this.agenda.send(message);
    if (step.unsupported !== undefined) this.sim.fault('raft-unreadable', { node: seat.raft.name, process: seat.node.proc, reads: seat.raft.version, ...step.unsupported });
    if (step.installed !== undefined) this.sim.fault('raft-snapshot', { node: seat.raft.name, process: seat.node.proc, ...step.installed, installed: true });
    if (seat.raft.lastApplied > (this.furthest?.index ?? 0)) this.furthest = { index: seat.raft.lastApplied, state: seat.raft.applied };
    for (const { index, entry, state, compacted } of step.applied ?? []) {
      const row = entry.command.kind === 'ElectLeader' ? {} : { command: entry.command.kind };
      this.sim.fault('raft-applied', { node: seat.raft.name, process: seat.node.proc, index, term: entry.term, leader: incarnationId(entry.command.leader), version: entry.command.version, ...row });
      if (compacted === true) this.sim.fault('raft-snapshot', { node: seat.raft.name, process: seat.node.proc, index, term: entry.term, installed: false });
      if (seat.raft.role === 'leader' && entry.command.kind === 'ElectLeader' && entry.command.term === seat.raft.term && entry.command.leader.node === seat.raft.name) this.committedLeadership(seat);
      // A leader the committed configuration no longer counts among the voters stops leading (§64).
      if (this.membership.applied(seat, index, entry, state) && seat.raft.role === 'leader') {
        this.stepDown(seat);
        seat.raft.stepDown();
      }
    }
  }

  private elected(seat: Seat, term: number): void {
    const raft = seat.raft;
    this.sim.fault('raft-elected', { term, node: raft.name, process: seat.node.proc, votes: [...raft.votes].sort(), log: knownTerms(raft.log) });
    // The votes are the newest word from a majority: the check-quorum window starts with them.
    seat.answered.clear();
    for (const voter of raft.votes) seat.answered.set(voter, this.sim.now);
    seat.heartbeatGen++;
    const crashAt = this.faults.newLeaderCrashAt();
    if (crashAt !== null) this.agenda.at(crashAt, { kind: 'raft-crash', node: raft.name, term });
    // The first round brings the followers' logs up to the leader's; its own entry goes with the next.
    seat.proposed = false;
    this.act(seat, raft.heartbeat());
    this.agenda.armHeartbeat(seat);
  }

  /** The leader applied its own ElectLeader entry: the epoch is committed, the role and its guard are its own. */
  private committedLeadership(seat: Seat): void {
    if (seat.guard === null) this.takeRole(seat, seat.raft.applied);
  }

  private takeRole(seat: Seat, applied: CoordinationState): void {
    const guard = issueRoleGuard(applied, this.role, seat.incarnation);
    if (!isRoleGuard(guard)) return;
    seat.guard = guard;
    this.sim.fault('leader-change', { term: applied.term, epoch: applied.epoch, leader: seat.node.proc, voters: seat.raft.voters.length, votes: [...seat.raft.votes].sort() });
    this.sim.spawn(seat.node, `${seat.node.proc}:lead${applied.term}`, (fiber) => lead(this.sim, this, this.jobs, fiber));
  }

  /** The role ends; a leader that steps down waits a whole election timeout before it stands again. */
  private stepDown(seat: Seat): void {
    seat.guard = null;
    seat.heartbeatGen++;
    seat.lastHeardMs = this.sim.now;
  }

  /** Check-quorum (§74): a majority of the voters in force answered within the window (the leader counts only while it is one). */
  private majorityRecently(seat: Seat): boolean {
    if (!this.sim.policy.checkQuorum) return true;
    const since = this.sim.now - this.options.stepDownMs;
    const heard = seat.raft.voters.filter((name) => name === seat.raft.name || (seat.answered.get(name) ?? -Infinity) > since).length;
    return heard >= seat.raft.majority;
  }


  /** The leader that runs and holds its role now, or null. */
  private leaderWithRole(): Seat | null {
    const found = [...this.seats.values()].find((seat) => seat.raft.role === 'leader' && seat.node.pausedUntil <= this.sim.now && this.guard(seat.node) !== null);
    return found ?? null;
  }

  /** The seat that believes it leads with the highest term (a deposed one may still believe it). */
  private leaderSeat(): { readonly name: string } | null {
    let found: Seat | null = null;
    for (const seat of this.seats.values()) if (seat.raft.role === 'leader' && !seat.node.down && (found === null || seat.raft.term > found.raft.term)) found = seat;
    return found === null ? null : { name: found.raft.name };
  }

  private seat(name: string): Seat {
    const seat = this.seats.get(name);
    assert.ok(seat !== undefined, `node ${name} is a simulated node`);
    return seat;
  }
}
