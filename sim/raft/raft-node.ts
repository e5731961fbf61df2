// One Raft voter (seed 001 §55, §66–§72): its durable state (term, vote, log), what it keeps only
// while its process runs (commit index, what it applied, its role, a leader's view of its
// followers), and the four messages of the protocol. It sends nothing itself: every handler
// answers the messages to send, and the service (raft-service.ts) puts them on the network.
//
// What the log replicates is the coordination state machine (model/coordination-epoch.ts): a new
// leader's first entry is its ElectLeader command, and the coordination epoch it owns exists once
// that entry is committed and applied (§83, §283). Applied state is rebuilt from the log after a
// restart, as a node without a snapshot would.

import { appendEntries, candidateUpToDate, committable, lastTerm, termAt, type Log, type LogEntry } from '../../model/raft-log.ts';
import { applyCoordination, initialCoordination, type CoordinationCommand, type CoordinationState } from '../../model/coordination-epoch.ts';

/** A coordination command with the version of its encoding: a binary reads the versions up to its own (001 §151). */
export type RaftCommand = Extract<CoordinationCommand, { readonly kind: 'ElectLeader' }> & { readonly version: number };
export type RaftEntry = LogEntry<RaftCommand>;

export type RaftMessage =
  | { readonly type: 'vote'; readonly from: string; readonly to: string; readonly term: number; readonly lastIndex: number; readonly lastTerm: number }
  | { readonly type: 'vote-reply'; readonly from: string; readonly to: string; readonly term: number; readonly granted: boolean }
  | { readonly type: 'append'; readonly from: string; readonly to: string; readonly term: number; readonly prevIndex: number; readonly prevTerm: number; readonly entries: Log<RaftCommand>; readonly leaderCommit: number }
  | { readonly type: 'timeout-now'; readonly from: string; readonly to: string; readonly term: number }
  | { readonly type: 'append-reply'; readonly from: string; readonly to: string; readonly term: number; readonly success: boolean; readonly matchIndex: number; readonly version: number };

export type RaftRole = 'follower' | 'candidate' | 'leader';

/** What the service learns from a handler: messages to send, and what happened worth recording. */
export interface Step {
  readonly send: ReadonlyArray<RaftMessage>;
  /** The node won an election (a majority of votes) in this term. */
  readonly elected?: number;
  /** Entries applied to the state machine, in order. */
  readonly applied?: ReadonlyArray<{ readonly index: number; readonly entry: RaftEntry }>;
  /** The node heard from a leader of its term (its election timer starts again). */
  readonly heardLeader?: boolean;
  /** A committed entry its binary cannot read: it applies nothing from there on (001 §152). */
  readonly unsupported?: { readonly index: number; readonly version: number };
}

export interface RaftRules {
  /** Commit only entries of the leader's own term by counting (Raft paper 5.4.2); off: the Figure 8 mutant. */
  readonly commitCurrentTermOnly: boolean;
  /** An election needs a majority of the voters; off: half of them, rounded down (the minority-election mutant). */
  readonly majorityElections: boolean;
  /** A vote is durable: it survives a restart (Raft's persistent votedFor); off: a restart forgets it. */
  readonly votesPersist: boolean;
  /** A vote goes only to a candidate whose log is at least as up to date (Raft paper 5.4.1); off: to any. */
  readonly votesNeedUpToDateLog: boolean;
  /** AppendEntries checks that the follower's log holds the leader's previous entry; off: it appends at that index whatever is there. */
  readonly appendChecksPrevious: boolean;
  /** A voter whose durable state was lost never votes or stands again; off: it starts afresh, as if new. */
  readonly lostStateFailsSafe: boolean;
  /** A leader encodes commands at the highest version every voter has said it reads; off: at its own binary's. */
  readonly featuresWaitForAllVoters: boolean;
}

export const CORRECT_RAFT: RaftRules = { commitCurrentTermOnly: true, majorityElections: true, votesPersist: true, votesNeedUpToDateLog: true, appendChecksPrevious: true, lostStateFailsSafe: true, featuresWaitForAllVoters: true };

export class RaftNode {
  // Durable: kept across restarts.
  term = 0;
  votedFor: string | null = null;
  log: Log<RaftCommand> = [];
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
  private nextIndex = new Map<string, number>();
  private matchIndex = new Map<string, number>();

  constructor(
    readonly name: string,
    private readonly voters: ReadonlyArray<string>,
    private readonly rules: RaftRules,
  ) {
    this.applied = initialCoordination(voters);
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
    this.commitIndex = 0;
    this.lastApplied = 0;
    this.applied = initialCoordination(this.voters);
    this.votes = new Set();
    this.heardVersions = new Map();
  }

  /** A leader's most caught-up follower (ties: the first in voter order), or null. */
  mostCaughtUp(): string | null {
    let best: string | null = null;
    for (const peer of this.peers) if (best === null || (this.matchIndex.get(peer) ?? 0) > (this.matchIndex.get(best) ?? 0)) best = peer;
    return best;
  }

  /** The coordination state its whole log would give, committed or not (what a leader that acts before the commit believes). */
  stateOfLog(): CoordinationState {
    return this.log.reduce((state, entry) => applyCoordination(state, entry.command).state, initialCoordination(this.voters));
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
    this.log = [];
    this.restart();
    if (this.rules.lostStateFailsSafe) this.abstains = true;
  }

  /** The election timer fired: a new term, a vote for itself, and a request to every peer. */
  startElection(): Step {
    this.term += 1;
    this.votedFor = this.name;
    this.role = 'candidate';
    this.votes = new Set([this.name]);
    const send = this.peers.map((to) => this.voteRequest(to));
    return this.votes.size >= this.votesNeeded ? { ...this.becomeLeader(), send } : { send };
  }

  /**
   * A leader's heartbeat: AppendEntries to every peer, from what it believes the peer lacks. A
   * candidate asks again the peers that have not voted for it (a request or its answer may be lost).
   */
  heartbeat(): Step {
    if (this.role === 'candidate') return { send: this.peers.filter((peer) => !this.votes.has(peer)).map((to) => this.voteRequest(to)) };
    if (this.role !== 'leader') return { send: [] };
    return { send: this.peers.map((to) => this.appendTo(to)) };
  }

  private voteRequest(to: string): RaftMessage {
    return { type: 'vote', from: this.name, to, term: this.term, lastIndex: this.log.length, lastTerm: lastTerm(this.log) };
  }

  /** Appends a command of the leader's current term to its own log. */
  propose(command: RaftCommand): void {
    this.log = [...this.log, { term: this.term, command }];
    this.matchIndex.set(this.name, this.log.length);
  }

  receive(message: RaftMessage): Step {
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
    for (const peer of this.peers) {
      this.nextIndex.set(peer, this.log.length + 1);
      this.matchIndex.set(peer, 0);
    }
    this.matchIndex.set(this.name, this.log.length);
    return { send: [], elected: this.term };
  }

  private onAppend(m: Extract<RaftMessage, { type: 'append' }>): Step {
    if (m.term < this.term) return { send: [{ type: 'append-reply', from: this.name, to: m.from, term: this.term, success: false, matchIndex: 0, version: this.version }] };
    this.role = 'follower';
    // The broken check takes whatever the log holds at prevIndex for what the leader said.
    const prevTerm = this.rules.appendChecksPrevious || m.prevIndex > this.log.length ? m.prevTerm : termAt(this.log, m.prevIndex)!;
    const result = appendEntries(this.log, m.prevIndex, prevTerm, m.entries);
    if (!result.ok) return { send: [{ type: 'append-reply', from: this.name, to: m.from, term: this.term, success: false, matchIndex: 0, version: this.version }], heardLeader: true };
    this.log = result.log;
    // Only what this message showed to match the leader's log may be committed on its word.
    const { applied, unsupported } = this.commitTo(Math.min(m.leaderCommit, result.matchIndex));
    return { send: [{ type: 'append-reply', from: this.name, to: m.from, term: this.term, success: true, matchIndex: result.matchIndex, version: this.version }], heardLeader: true, applied, ...(unsupported === undefined ? {} : { unsupported }) };
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
    const matches = this.voters.map((v) => (v === this.name ? this.log.length : (this.matchIndex.get(v) ?? 0)));
    const index = committable(this.log, matches, this.majority, this.term, this.commitIndex, this.rules.commitCurrentTermOnly);
    const { applied, unsupported } = this.commitTo(index);
    return { send: [], applied, ...(unsupported === undefined ? {} : { unsupported }) };
  }

  private appendTo(peer: string): RaftMessage {
    const next = this.nextIndex.get(peer) ?? this.log.length + 1;
    const prevIndex = next - 1;
    return { type: 'append', from: this.name, to: peer, term: this.term, prevIndex, prevTerm: termAt(this.log, prevIndex) ?? 0, entries: this.log.slice(prevIndex), leaderCommit: this.commitIndex };
  }

  /** Raises the commit index to `index` (never lowers it) and applies what it newly covers. */
  private commitTo(index: number): { readonly applied: ReadonlyArray<{ readonly index: number; readonly entry: RaftEntry }>; readonly unsupported?: { readonly index: number; readonly version: number } } {
    if (index > this.commitIndex) this.commitIndex = Math.min(index, this.log.length);
    const applied: Array<{ index: number; entry: RaftEntry }> = [];
    while (this.lastApplied < this.commitIndex) {
      const entry = this.log[this.lastApplied]!;
      if (entry.command.version > this.version) {
        // It cannot read what was committed: it stops here rather than guess (001 §152).
        const first = this.stuckAt !== this.lastApplied + 1;
        this.stuckAt = this.lastApplied + 1;
        return first ? { applied, unsupported: { index: this.stuckAt, version: entry.command.version } } : { applied };
      }
      this.lastApplied += 1;
      this.applied = applyCoordination(this.applied, entry.command).state;
      applied.push({ index: this.lastApplied, entry });
    }
    return { applied };
  }

  /** The index it could not read, once said. */
  private stuckAt = 0;
}
