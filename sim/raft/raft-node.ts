// One Raft node, a voter, a learner or (not yet, or no longer) neither (seed 001 §55, §66–§72): its durable state (term, vote, log), what it keeps only
// while its process runs (commit index, what it applied, its role, a leader's view of its
// followers), and the messages of the protocol (raft-protocol.ts). It sends nothing itself: every handler
// answers the messages to send, and the service (raft-service.ts) puts them on the network.
//
// What the log replicates is the coordination state machine (model/coordination-epoch.ts): a new
// leader's first entry is its ElectLeader command, and the coordination epoch it owns exists once
// that entry is committed and applied (§83, §283). With `snapshotEntries` set, a node compacts its
// log (001 §338): once it has applied that many entries beyond its snapshot, the state it applied
// becomes the snapshot and those entries go; a follower the leader can no longer catch up from the
// log is sent the snapshot, which carries the highest command version it was built from. A restart
// loads the snapshot; the entries after it are applied again as the commit index reaches them.

import { append, appendEntries, candidateUpToDate, committable, compactTo, emptyLog, entriesFrom, entryAt, installSnapshot, lastIndex, lastTerm, termAt, type Log } from '../../model/raft-log.ts';
import { initialCoordination, type CoordinationState } from '../../model/coordination-epoch.ts';
import { votersOf, type Membership } from '../../model/cluster-membership.ts';
import { changePending, configurationAt } from './raft-config.ts';
import { applyRaftCommand, type Applied, type RaftCommand, type RaftEntry, type RaftMessage, type RaftRole, type RaftRules, type Step } from './raft-protocol.ts';

export class RaftNode {
  // Durable: kept across restarts.
  term = 0;
  votedFor: string | null = null;
  log: Log<RaftCommand> = emptyLog();
  /** The coordination state the log's compacted part built (at `log.base`), and the highest command version it was built from. */
  snapshot: CoordinationState;
  snapshotVersion = 1;
  /**
   * It lost its durable state once (voter-state-loss): what it voted and acknowledged before is
   * unknown, so it may not vote or stand again; it still follows and stores the log.
   */
  abstains = false;
  /** The command version its binary reads up to (a rolling upgrade raises it, 001 §149–§156). */
  version = 1;
  // Volatile: lost with the process.
  /** A leader's view of each voter's binary version, from their answers (unknown: the first version). */
  private heardVersions = new Map<string, number>();
  role: RaftRole = 'follower';
  commitIndex = 0;
  lastApplied = 0;
  applied: CoordinationState;
  /** The voters that granted this node its current candidacy (itself first). */
  votes = new Set<string>();
  /** The index it could not read, once said. */
  private stuckAt = 0;
  private nextIndex = new Map<string, number>();
  private matchIndex = new Map<string, number>();

  constructor(
    readonly name: string,
    /** The first configuration's voters (001 §60): what a log with no membership change holds. */
    private readonly bootstrap: ReadonlyArray<string>,
    private readonly rules: RaftRules,
    /** Compact every this many applied entries (0: never). */
    private readonly snapshotEntries = 0,
  ) {
    this.applied = initialCoordination(bootstrap);
    this.snapshot = this.applied;
  }

  /**
   * The configuration in force on this node: the latest membership change in its log, committed
   * or not, else its snapshot's (single-server changes, 001 §157: a node uses a configuration as
   * soon as it holds it).
   */
  get membership(): Membership {
    return configurationAt(this.log, this.snapshot);
  }

  /** The configuration of the committed part of its log. */
  get committedMembership(): Membership {
    return configurationAt(this.log, this.snapshot, this.commitIndex);
  }

  /** The voters of the configuration in force, in order. */
  get voters(): ReadonlyArray<string> {
    return votersOf(this.membership);
  }

  /** Whom a leader replicates to: every member but itself, and any node a change not yet committed removed (it learns of its removal). */
  private get followers(): ReadonlyArray<string> {
    const members = new Set([...this.membership.roles.keys(), ...configurationAt(this.log, this.snapshot, this.commitIndex).roles.keys()]);
    members.delete(this.name);
    return [...members].sort();
  }

  /** No membership change is in the log beyond the commit index: the leader may propose one (one at a time, 001 §157). */
  get settled(): boolean {
    return !changePending(this.log, this.commitIndex);
  }

  /** How far a follower's log matches the leader's, as the leader knows it. */
  matchOf(node: string): number {
    return node === this.name ? lastIndex(this.log) : (this.matchIndex.get(node) ?? 0);
  }

  get majority(): number {
    return Math.floor(this.voters.length / 2) + 1;
  }

  private get votesNeeded(): number {
    return this.rules.majorityElections ? this.majority : Math.max(1, Math.floor(this.voters.length / 2));
  }

  private get peers(): ReadonlyArray<string> {
    return this.voters.filter((v) => v !== this.name);
  }

  /** The process ended: only the durable state stays. */
  restart(): void {
    this.role = 'follower';
    if (!this.rules.votesPersist) this.votedFor = null;
    this.commitIndex = this.log.base;
    this.lastApplied = this.log.base;
    this.applied = this.snapshot;
    this.votes = new Set();
    this.heardVersions = new Map();
  }

  /** A leader's most caught-up follower (ties: the first in voter order), or null. */
  mostCaughtUp(): string | null {
    let best: string | null = null;
    for (const peer of this.peers) if (best === null || (this.matchIndex.get(peer) ?? 0) > (this.matchIndex.get(best) ?? 0)) best = peer;
    return best;
  }

  /** The command version a leader may use: what every voter reads, or its own binary's when the rule is off. */
  commandVersion(): number {
    if (!this.rules.featuresWaitForAllVoters) return this.version;
    return Math.min(...this.voters.map((v) => (v === this.name ? this.version : (this.heardVersions.get(v) ?? 1))));
  }

  /** The durable state is gone (a wiped or corrupt disk): no term, no vote, no log. */
  loseState(): void {
    this.term = 0;
    this.votedFor = null;
    this.log = emptyLog();
    this.snapshot = initialCoordination(this.bootstrap);
    this.snapshotVersion = 1;
    this.restart();
    if (this.rules.lostStateFailsSafe) this.abstains = true;
  }

  /** The election timer fired: a new term, a vote for itself, and a request to every other voter. */
  startElection(): Step {
    // A learner, or a node outside the configuration it holds, does not stand.
    if (!this.voters.includes(this.name)) return { send: [] };
    this.term += 1;
    this.votedFor = this.name;
    this.role = 'candidate';
    this.votes = new Set([this.name]);
    const send = this.peers.map((to) => this.voteRequest(to));
    return this.votes.size >= this.votesNeeded ? { ...this.becomeLeader(), send } : { send };
  }

  /**
   * A leader's heartbeat: AppendEntries to every follower (learners included), from what it believes it lacks. A
   * candidate asks again the peers that have not voted for it (a request or its answer may be lost).
   */
  heartbeat(): Step {
    if (this.role === 'candidate') return { send: this.peers.filter((peer) => !this.votes.has(peer)).map((to) => this.voteRequest(to)) };
    if (this.role !== 'leader') return { send: [] };
    return { send: this.followers.map((to) => this.appendTo(to)) };
  }

  private voteRequest(to: string): RaftMessage {
    return { type: 'vote', from: this.name, to, term: this.term, lastIndex: lastIndex(this.log), lastTerm: lastTerm(this.log) };
  }

  /** Appends a command of the leader's current term to its own log. */
  propose(command: RaftCommand): void {
    this.log = append(this.log, { term: this.term, command });
    this.matchIndex.set(this.name, lastIndex(this.log));
  }

  receive(message: RaftMessage): Step {
    // A RequestVote from a node outside the voters of the configuration it holds is ignored, its
    // term included: a removed node that missed its removal cannot depose the cluster's leaders.
    if (message.type === 'vote' && !this.voters.includes(message.from)) return { send: [] };
    if (message.term > this.term) this.learnTerm(message.term);
    switch (message.type) {
      case 'vote':
        return this.onVote(message);
      case 'vote-reply':
        return this.onVoteReply(message);
      case 'append':
        return this.onAppend(message);
      case 'append-reply':
        return this.onAppendReply(message);
      case 'snapshot':
        return this.onSnapshot(message);
      case 'timeout-now':
        // The leader of this term hands leadership on: stand for election now (001 §270).
        return message.term === this.term && this.role === 'follower' && !this.abstains ? this.startElection() : { send: [] };
    }
  }

  /** Leadership or candidacy ends; the node follows (the service withdraws the role guard). */
  stepDown(): void {
    this.role = 'follower';
  }

  private learnTerm(term: number): void {
    this.term = term;
    this.votedFor = null;
    this.role = 'follower';
  }

  private onVote(m: Extract<RaftMessage, { type: 'vote' }>): Step {
    const free = this.votedFor === null || this.votedFor === m.from;
    const granted = !this.abstains && m.term === this.term && free && (candidateUpToDate(this.log, m.lastIndex, m.lastTerm) || !this.rules.votesNeedUpToDateLog);
    if (granted) this.votedFor = m.from;
    return { send: [{ type: 'vote-reply', from: this.name, to: m.from, term: this.term, granted }], ...(granted ? { heardLeader: true } : {}) };
  }

  private onVoteReply(m: Extract<RaftMessage, { type: 'vote-reply' }>): Step {
    if (this.role !== 'candidate' || m.term !== this.term || !m.granted) return { send: [] };
    this.votes.add(m.from);
    return this.votes.size >= this.votesNeeded ? this.becomeLeader() : { send: [] };
  }

  private becomeLeader(): Step {
    if (this.role === 'leader') return { send: [] };
    this.role = 'leader';
    // What an earlier leadership of this node knew of its followers is no longer true.
    this.nextIndex = new Map();
    this.matchIndex = new Map();
    for (const peer of this.followers) {
      this.nextIndex.set(peer, lastIndex(this.log) + 1);
      this.matchIndex.set(peer, 0);
    }
    this.matchIndex.set(this.name, lastIndex(this.log));
    return { send: [], elected: this.term };
  }

  /** The answer to an AppendEntries or InstallSnapshot: how far this log matches the leader's, or 0 when it does not. */
  private replyTo(to: string, matchIndex: number | null): RaftMessage {
    return { type: 'append-reply', from: this.name, to, term: this.term, success: matchIndex !== null, matchIndex: matchIndex ?? 0, version: this.version };
  }

  private onAppend(m: Extract<RaftMessage, { type: 'append' }>): Step {
    if (m.term < this.term) return { send: [this.replyTo(m.from, null)] };
    this.role = 'follower';
    // The broken check takes whatever the log holds at prevIndex for what the leader said.
    const prevTerm = this.rules.appendChecksPrevious || m.prevIndex > lastIndex(this.log) ? m.prevTerm : (termAt(this.log, m.prevIndex) ?? m.prevTerm);
    const result = appendEntries(this.log, m.prevIndex, prevTerm, m.entries);
    if (!result.ok) return { send: [this.replyTo(m.from, null)], heardLeader: true };
    this.log = result.log;
    // Only what this message showed to match the leader's log may be committed on its word.
    const progress = this.commitTo(Math.min(m.leaderCommit, result.matchIndex));
    return { send: [this.replyTo(m.from, result.matchIndex)], heardLeader: true, ...progress };
  }

  /** InstallSnapshot: a log that lacks what the snapshot covers takes the leader's state up to it. */
  private onSnapshot(m: Extract<RaftMessage, { type: 'snapshot' }>): Step {
    if (m.term < this.term) return { send: [this.replyTo(m.from, null)] };
    this.role = 'follower';
    if (m.index <= this.commitIndex) return { send: [this.replyTo(m.from, m.index)], heardLeader: true };
    if (m.version > this.version) {
      // Built from commands its binary cannot read: it takes nothing rather than guess (001 §152).
      const first = this.stuckAt !== m.index;
      this.stuckAt = m.index;
      return { send: [], heardLeader: true, ...(first ? { unsupported: { index: m.index, version: m.version } } : {}) };
    }
    this.log = installSnapshot(this.log, m.index, m.lastTerm);
    this.snapshot = m.state;
    this.snapshotVersion = m.version;
    this.commitIndex = m.index;
    this.lastApplied = m.index;
    this.applied = m.state;
    return { send: [this.replyTo(m.from, m.index)], heardLeader: true, installed: { index: m.index, term: m.lastTerm } };
  }

  private onAppendReply(m: Extract<RaftMessage, { type: 'append-reply' }>): Step {
    if (this.role !== 'leader' || m.term !== this.term) return { send: [] };
    if (!m.success) {
      // Back up one entry and try again at the next heartbeat.
      this.nextIndex.set(m.from, Math.max(1, (this.nextIndex.get(m.from) ?? 1) - 1));
      return { send: [] };
    }
    this.heardVersions.set(m.from, Math.max(this.heardVersions.get(m.from) ?? 1, m.version));
    this.matchIndex.set(m.from, Math.max(this.matchIndex.get(m.from) ?? 0, m.matchIndex));
    this.nextIndex.set(m.from, Math.max(this.nextIndex.get(m.from) ?? 1, m.matchIndex + 1));
    const matches = this.voters.map((v) => (v === this.name ? lastIndex(this.log) : (this.matchIndex.get(v) ?? 0)));
    const index = committable(this.log, matches, this.majority, this.term, this.commitIndex, this.rules.commitCurrentTermOnly);
    return { send: [], ...this.commitTo(index) };
  }

  /** What a follower lacks, from what the leader believes: entries after its previous one, or the snapshot once the log no longer holds them. */
  private appendTo(peer: string): RaftMessage {
    // A follower that joined since this node's election is sent the log from its start (or the snapshot).
    const next = this.nextIndex.get(peer) ?? this.log.base + 1;
    if (next <= this.log.base) return { type: 'snapshot', from: this.name, to: peer, term: this.term, index: this.log.base, lastTerm: this.log.baseTerm, state: this.snapshot, version: this.snapshotVersion };
    const prevIndex = next - 1;
    return { type: 'append', from: this.name, to: peer, term: this.term, prevIndex, prevTerm: termAt(this.log, prevIndex) ?? 0, entries: entriesFrom(this.log, next), leaderCommit: this.commitIndex };
  }

  /** Raises the commit index to `index` (never lowers it), applies what it newly covers, and compacts the log whenever that is due. */
  private commitTo(index: number): Pick<Step, 'applied' | 'unsupported'> {
    if (index > this.commitIndex) this.commitIndex = Math.min(index, lastIndex(this.log));
    const applied: Applied[] = [];
    while (this.lastApplied < this.commitIndex) {
      const entry = entryAt(this.log, this.lastApplied + 1)!;
      if (entry.command.version > this.version) {
        // It cannot read what was committed: it stops here rather than guess (001 §152).
        const first = this.stuckAt !== this.lastApplied + 1;
        this.stuckAt = this.lastApplied + 1;
        return first ? { applied, unsupported: { index: this.stuckAt, version: entry.command.version } } : { applied };
      }
      this.apply(applied, entry);
      this.compact(applied);
    }
    this.compact(applied);
    return { applied };
  }

  private apply(applied: Applied[], entry: RaftEntry): void {
    this.lastApplied += 1;
    this.applied = applyRaftCommand(this.applied, entry.command);
    applied.push({ index: this.lastApplied, entry, state: this.applied });
  }

  /**
   * Once `snapshotEntries` applied entries follow the snapshot, the applied state replaces them in
   * the log (001 §338). The broken rule counts the log's entries instead, committed or not, and
   * takes them all into the snapshot, counting them as applied.
   */
  private compact(applied: Applied[]): void {
    if (this.snapshotEntries === 0 || !this.rules.compactsLog) return;
    const upTo = this.rules.snapshotsCommittedOnly ? this.lastApplied : lastIndex(this.log);
    if (upTo - this.log.base < this.snapshotEntries) return;
    while (this.lastApplied < upTo) this.apply(applied, entryAt(this.log, this.lastApplied + 1)!);
    if (applied.length === 0) return;
    this.commitIndex = Math.max(this.commitIndex, upTo);
    this.snapshotVersion = Math.max(this.snapshotVersion, ...this.log.entries.slice(0, upTo - this.log.base).map((entry) => entry.command.version));
    this.log = compactTo(this.log, upTo);
    this.snapshot = this.applied;
    applied[applied.length - 1] = { ...applied[applied.length - 1]!, compacted: true };
  }
}
