// An abstract consensus layer over 3 or 5 voters (seed 001 §66–§72, §82–§89, §97–§98): terms,
// one vote per voter per term, majority elections, heartbeats that keep followers from timing
// out, and a committed coordination state machine (model/coordination-epoch.ts). It models only
// what the faults need: a message exchange is one instant over the links that are open at that
// moment, and replication is "a majority knows the committed epoch". What the business layer does
// with the epochs is the point; the consensus is just faithful enough to produce them.
// One voter is the standalone backend (§162, §165, §325–§326): no network between voters, the
// node is its own majority, and each incarnation still takes a new term and a new epoch, so the
// layer above sees the same epochs and guards as on a cluster (§327).
// Membership (§15–§17, §59–§66): the committed configuration decides who votes and what a
// majority is. Learners follow the leader's heartbeats (they catch up) but neither vote nor count;
// a node outside the configuration, or removed from it, takes no part at all. A change is one
// committed entry, so it needs the leader and a majority of the voters of the configuration it
// changes (single-server changes, §157).

import { strict as assert } from 'node:assert';
import { isVoter, votersOf, type Membership, type MembershipChange } from '../../model/cluster-membership.ts';
import { applyCoordination, initialCoordination, type CoordinatedRole, type CoordinationOutcome, type CoordinationState } from '../../model/coordination-epoch.ts';
import type { MaintenanceState } from '../../model/maintenance.ts';
import { firstIncarnation, incarnationId, restarted, type NodeIncarnation } from '../../model/node-incarnation.ts';
import { issueRoleGuard, isRoleGuard, type RoleGuard } from '../../model/role-guard.ts';
import { majorityOf } from '../../scenarios/coordination-options.ts';

/** What the cluster can see of the network at one instant. */
export interface Links {
  /** The voter's process is running: up and not paused. */
  running(node: string): boolean;
  /** Messages pass both ways between two voters. */
  connected(a: string, b: string): boolean;
}

export type VoterRole = 'follower' | 'candidate' | 'leader';

/** A node that can take part in the cluster: a voter, a learner, or (not yet, or no longer) neither. */
export interface Voter {
  readonly name: string;
  /** Durable across restarts (Raft's persistent state): term, vote, last committed epoch known. */
  term: number;
  votedFor: string | null;
  knownEpoch: number;
  /** Per process: the incarnation and what it believes it is (§12–§13). */
  incarnation: NodeIncarnation;
  role: VoterRole;
  /** True time a leader (or a candidate it voted for) was last heard. */
  lastHeardMs: number;
  guard: RoleGuard | null;
}

export type ElectionResult =
  | { readonly kind: 'Elected'; readonly term: number; readonly epoch: number; readonly leader: string; readonly votes: ReadonlyArray<string> }
  | { readonly kind: 'NotElected'; readonly term: number; readonly votes: number }
  | { readonly kind: 'HigherTerm'; readonly term: number };

export interface HeartbeatRound {
  readonly term: number;
  /** Followers that accepted the heartbeat (the leader itself not counted). */
  readonly acks: number;
  /** A higher term some peer answered with, or null. */
  readonly higherTerm: number | null;
}

/**
 * The consensus rules a broken coordination layer gets wrong (each on in the correct one; a
 * controller-policy mutant turns one off).
 */
export interface ClusterRules {
  /** An election needs a majority of the voters; off: half of them, rounded down, is enough. */
  readonly majorityElections: boolean;
  /** Stepping down invalidates the guard; off: the guard object stays with the process. */
  readonly guardEndsWithRole: boolean;
  /** A new member joins as a learner; off: it is committed as a voter at once. */
  readonly learnerFirst: boolean;
  readonly promoteWhenCaughtUp: boolean;
  /** Each leader's role guard carries the epoch its election committed; off: the role keeps its predecessor's epoch. */
  readonly newRoleEpochPerLeader: boolean;
}

const CORRECT_RULES: ClusterRules = { majorityElections: true, guardEndsWithRole: true, learnerFirst: true, promoteWhenCaughtUp: true, newRoleEpochPerLeader: true };

export class Cluster {
  /** Every node, member or not, in a fixed order. */
  readonly nodes: ReadonlyArray<Voter>;
  private readonly byName = new Map<string, Voter>();
  committed: CoordinationState;

  /** `names` are all the nodes; the first `bootstrapVoters` of them form the first configuration (§60). */
  constructor(
    names: ReadonlyArray<string>,
    private readonly roles: ReadonlyArray<CoordinatedRole>,
    bootstrapVoters = names.length,
    readonly rules: ClusterRules = CORRECT_RULES,
  ) {
    assert.ok(bootstrapVoters === 1 || bootstrapVoters === 3 || bootstrapVoters === 5, 'a cluster has 3 or 5 voters, or 1 when standalone');
    assert.ok(bootstrapVoters <= names.length, 'the bootstrap voters are nodes of the cluster');
    this.committed = initialCoordination(names.slice(0, bootstrapVoters));
    this.nodes = names.map((name) => ({ name, term: 0, votedFor: null, knownEpoch: 0, incarnation: firstIncarnation(name), role: 'follower', lastHeardMs: 0, guard: null }));
    for (const voter of this.nodes) this.byName.set(voter.name, voter);
  }

  /** The voters of the committed configuration. */
  get voters(): ReadonlyArray<Voter> {
    return this.configuration().voters;
  }

  /** A majority of the committed configuration's voters (§71). */
  get majority(): number {
    return this.configuration().majority;
  }

  /** Voters and majority of the committed configuration, worked out once per configuration. */
  private configuration(): { readonly voters: ReadonlyArray<Voter>; readonly majority: number } {
    const membership = this.committed.membership;
    if (this.cached?.membership !== membership) {
      this.cached = { membership, voters: this.nodes.filter((node) => isVoter(membership, node.name)), majority: majorityOf(votersOf(membership).length) };
    }
    return this.cached;
  }

  private cached: { readonly membership: Membership; readonly voters: ReadonlyArray<Voter>; readonly majority: number } | null = null;

  isVoter(voter: Voter): boolean {
    return isVoter(this.committed.membership, voter.name);
  }

  /** Voters and learners: the nodes a leader replicates to. */
  private followersOf(leader: Voter): ReadonlyArray<Voter> {
    return this.nodes.filter((node) => node !== leader && this.committed.membership.roles.has(node.name));
  }

  voter(name: string): Voter {
    const voter = this.byName.get(name);
    assert.ok(voter !== undefined, `unknown voter ${name}`);
    return voter;
  }

  /** The voter that believes it leads with the highest term (a deposed one may still believe it). */
  leader(): Voter | null {
    let found: Voter | null = null;
    for (const voter of this.nodes) if (voter.role === 'leader' && (found === null || voter.term > found.term)) found = voter;
    return found;
  }

  /** Some running voter reaches a majority, itself included (§71). */
  quorumAvailable(links: Links): boolean {
    for (const voter of this.voters) {
      if (!links.running(voter.name)) continue;
      let reach = 1;
      for (const peer of this.voters) if (peer !== voter && links.connected(voter.name, peer.name)) reach++;
      if (reach >= this.majority) return true;
    }
    return false;
  }

  largestReach(links: Links): number {
    let best = 0;
    for (const voter of this.voters) {
      if (!links.running(voter.name)) continue;
      best = Math.max(best, 1 + this.peersOf(voter).filter((p) => links.connected(voter.name, p.name)).length);
    }
    return best;
  }

  /** Leadership ends in this process: the role is inactive and the guard invalid (§294). */
  stepDown(voter: Voter): void {
    voter.role = 'follower';
    if (this.rules.guardEndsWithRole) voter.guard = null;
  }

  /** A voter hears of a higher term: it adopts it and is no longer leader or candidate. */
  learnTerm(voter: Voter, term: number): void {
    if (term <= voter.term) return;
    voter.term = term;
    voter.votedFor = null;
    this.stepDown(voter);
  }

  /** The process ended; the next one has a new incarnation and inherits no authority (§13). */
  restart(voter: Voter, now: number): NodeIncarnation {
    this.stepDown(voter);
    voter.incarnation = restarted(voter.incarnation);
    voter.lastHeardMs = now;
    return voter.incarnation;
  }

  /**
   * One election round of `candidate` (Raft's RequestVote, as one instant): a new term, its own
   * vote, and a vote from each reachable peer that has not voted in this term and knows no newer
   * committed epoch. A majority elects it, and the election commits a new coordination epoch.
   */
  elect(candidate: Voter, now: number, links: Links): ElectionResult {
    assert.ok(candidate.role !== 'leader', 'a leader does not stand for election');
    assert.ok(this.isVoter(candidate), 'only a voter stands for election');
    candidate.term += 1;
    candidate.votedFor = candidate.name;
    candidate.role = 'candidate';
    candidate.lastHeardMs = now;
    const votes = [candidate.name];
    for (const peer of this.peersOf(candidate)) {
      if (!links.connected(candidate.name, peer.name)) continue;
      if (peer.term > candidate.term) {
        this.learnTerm(candidate, peer.term);
        return { kind: 'HigherTerm', term: candidate.term };
      }
      if (peer.term < candidate.term) this.learnTerm(peer, candidate.term);
      const free = peer.votedFor === null || peer.votedFor === candidate.name;
      if (!free || peer.knownEpoch > candidate.knownEpoch) continue;
      peer.votedFor = candidate.name;
      peer.lastHeardMs = now;
      votes.push(peer.name);
    }
    const needed = this.rules.majorityElections ? this.majority : Math.max(1, Math.floor(this.voters.length / 2));
    // Only a candidate that knows the last committed epoch can commit a new one (see commitLeadership).
    if (votes.length < needed || candidate.knownEpoch !== this.committed.epoch) return { kind: 'NotElected', term: candidate.term, votes: votes.length };
    return this.commitLeadership(candidate, votes, now);
  }

  private commitLeadership(leader: Voter, votes: ReadonlyArray<string>, now: number): ElectionResult {
    // Quorum intersection: some voter of this majority knew the last committed epoch and would
    // not have voted for a candidate that did not. So the candidate knows it too.
    assert.equal(leader.knownEpoch, this.committed.epoch, 'an elected candidate knows the last committed epoch');
    const previous = this.committed.roles;
    const next = applyCoordination(this.committed, { kind: 'ElectLeader', term: leader.term, leader: leader.incarnation, roles: this.roles });
    assert.equal(next.outcome.kind, 'LeaderElected', 'a majority-elected term is newer than the committed one');
    this.committed = next.state;
    for (const name of votes) {
      const voter = this.voter(name);
      voter.knownEpoch = this.committed.epoch;
      voter.lastHeardMs = now;
    }
    leader.role = 'leader';
    leader.guard = null;
    const role = this.roles[0];
    if (role !== undefined) {
      const before = previous.get(role);
      // A coordination layer that does not bump role epochs hands the new owner its predecessor's epoch.
      const assigned = this.rules.newRoleEpochPerLeader || before === undefined ? this.committed : { ...this.committed, roles: new Map([...this.committed.roles].map(([r, a]) => [r, r === role ? { ...a, epoch: before.epoch } : a])) };
      const guard = issueRoleGuard(assigned, role, leader.incarnation);
      assert.ok(isRoleGuard(guard), 'the elected leader is issued its role guard');
      leader.guard = guard;
    }
    return { kind: 'Elected', term: leader.term, epoch: this.committed.epoch, leader: incarnationId(leader.incarnation), votes: [...votes].sort() };
  }

  /**
   * One heartbeat round of `leader` (AppendEntries): reachable voters and learners follow it and
   * learn the epoch; only voters' answers count as acks.
   */
  heartbeat(leader: Voter, now: number, links: Links): HeartbeatRound {
    assert.ok(leader.role === 'leader', 'only a leader sends heartbeats');
    let acks = 0;
    let higherTerm: number | null = null;
    for (const peer of this.followersOf(leader)) {
      if (!links.connected(leader.name, peer.name)) continue;
      if (peer.term > leader.term) {
        higherTerm = Math.max(higherTerm ?? 0, peer.term);
        continue;
      }
      if (peer.term < leader.term) this.learnTerm(peer, leader.term);
      assert.ok(peer.role !== 'leader', `term ${leader.term} has one leader, not ${leader.name} and ${peer.name}`);
      if (peer.role === 'candidate') this.stepDown(peer);
      peer.lastHeardMs = now;
      peer.knownEpoch = Math.max(peer.knownEpoch, leader.knownEpoch);
      if (this.isVoter(peer)) acks += 1;
    }
    return { term: leader.term, acks, higherTerm };
  }

  /**
   * Commits one membership change proposed by `leader` (§157): it needs a majority of the current
   * voters reachable, itself included. A learner is promoted only once it knows the committed
   * epoch (it caught up, §62). Removing the leader's own node ends its leadership at the commit;
   * any removed node steps down and never votes again (§64, §215).
   */
  changeMembership(
    leader: Voter,
    change: MembershipChange,
    links: Links,
    /** Off only for the mutant whose removed node keeps its role. */
    stepDownRemoved = true,
  ): CoordinationOutcome | { readonly kind: 'NoQuorum'; readonly reachable: number } {
    assert.ok(leader.role === 'leader', 'only a leader proposes a membership change');
    const reachable = this.reachableFrom(leader, links);
    if (reachable < this.majority) return { kind: 'NoQuorum', reachable };
    const target = this.byName.get(change.node);
    const caughtUp = (target !== undefined && target.knownEpoch === this.committed.epoch) || !this.rules.promoteWhenCaughtUp;
    const next = applyCoordination(this.committed, { kind: 'ChangeMembership', term: leader.term, change, caughtUp });
    if (next.outcome.kind !== 'MembershipChanged') return next.outcome;
    this.committed = next.state;
    if (change.kind === 'add-learner' && !this.rules.learnerFirst) {
      // The same commit makes the new member a voter: it skips the learner stage.
      const voter = applyCoordination(this.committed, { kind: 'ChangeMembership', term: leader.term, change: { kind: 'promote', node: change.node }, caughtUp: true });
      if (voter.outcome.kind === 'MembershipChanged') this.committed = voter.state;
      return voter.outcome;
    }
    if (change.kind === 'remove' && target !== undefined && stepDownRemoved) this.stepDown(target);
    return next.outcome;
  }

  /** Commits a maintenance change proposed by `leader` (§130–§131), with a majority of the voters reachable. */
  setMaintenance(leader: Voter, state: MaintenanceState, links: Links): CoordinationOutcome | { readonly kind: 'NoQuorum'; readonly reachable: number } {
    assert.ok(leader.role === 'leader', 'only a leader proposes a maintenance change');
    const reachable = this.reachableFrom(leader, links);
    if (reachable < this.majority) return { kind: 'NoQuorum', reachable };
    const next = applyCoordination(this.committed, { kind: 'SetMaintenance', state, expectedEpoch: this.committed.maintenance.epoch });
    this.committed = next.state;
    return next.outcome;
  }

  /** The voters `leader` reaches now, itself included. */
  private reachableFrom(leader: Voter, links: Links): number {
    return 1 + this.peersOf(leader).filter((peer) => links.connected(leader.name, peer.name)).length;
  }

  /** How far `name` has caught up: the epoch it knows and the one committed (§62, match state of the audit record). */
  catchUpOf(name: string): { readonly knownEpoch: number; readonly committedEpoch: number } | null {
    const node = this.byName.get(name);
    return node === undefined ? null : { knownEpoch: node.knownEpoch, committedEpoch: this.committed.epoch };
  }

  /** The other voters of the committed configuration. */
  private peersOf(voter: Voter): ReadonlyArray<Voter> {
    return this.voters.filter((v) => v !== voter);
  }
}
