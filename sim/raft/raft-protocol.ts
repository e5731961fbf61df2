// The vocabulary of the message-level consensus (sim/raft/): the commands its log replicates, the
// messages voters exchange, what a voter's handler tells the service (a Step), and the rules a
// mutant may break (each the policy flag of model/controller-policy.ts of the same name).

import type { LogEntry } from '../../model/raft-log.ts';
import { applyCoordination, type CoordinationCommand, type CoordinationState } from '../../model/coordination-epoch.ts';
import type { NodeIncarnation } from '../../model/node-incarnation.ts';

/**
 * A command of the log, with the version of its encoding: a binary reads the versions up to its own
 * (001 §151). The log replicates coordination commands only (a leader's election, and membership
 * changes, one at a time: 001 §157); `RecordJob`, a dispatched job's row,
 * is what a leader that keeps business rows in the consensus log writes (the job-rows-in-raft
 * mutant; 001 §338 "Run/Job rows never enter Raft"), and `StoreArtifact`, a job's artifact bytes,
 * what one that keeps CAS content there writes (artifacts-in-raft; "CAS bytes never enter Raft").
 */
export type RaftCommand = (
  | Extract<CoordinationCommand, { readonly kind: 'ElectLeader' }>
  | (Extract<CoordinationCommand, { readonly kind: 'ChangeMembership' }> & { readonly leader: NodeIncarnation })
  | { readonly kind: 'RecordJob'; readonly term: number; readonly leader: NodeIncarnation; readonly scope: string }
  | { readonly kind: 'StoreArtifact'; readonly term: number; readonly leader: NodeIncarnation; readonly digest: string; readonly bytes: number }
) & { readonly version: number };
export type RaftEntry = LogEntry<RaftCommand>;

export type RaftMessage =
  | { readonly type: 'vote'; readonly from: string; readonly to: string; readonly term: number; readonly lastIndex: number; readonly lastTerm: number }
  | { readonly type: 'vote-reply'; readonly from: string; readonly to: string; readonly term: number; readonly granted: boolean }
  | { readonly type: 'append'; readonly from: string; readonly to: string; readonly term: number; readonly prevIndex: number; readonly prevTerm: number; readonly entries: ReadonlyArray<RaftEntry>; readonly leaderCommit: number }
  | { readonly type: 'timeout-now'; readonly from: string; readonly to: string; readonly term: number }
  /** InstallSnapshot: the state the leader's log built up to `index`, whose entry is of `lastTerm`, from commands of at most `version`. */
  | { readonly type: 'snapshot'; readonly from: string; readonly to: string; readonly term: number; readonly index: number; readonly lastTerm: number; readonly state: CoordinationState; readonly version: number }
  | { readonly type: 'append-reply'; readonly from: string; readonly to: string; readonly term: number; readonly success: boolean; readonly matchIndex: number; readonly version: number };

/** An entry a node applied; `compacted`: its log up to this entry was then replaced by a snapshot. */
export interface Applied {
  readonly index: number;
  readonly entry: RaftEntry;
  /** The coordination state right after this entry. */
  readonly state: CoordinationState;
  readonly compacted?: true;
}

export type RaftRole = 'follower' | 'candidate' | 'leader';

/** What the service learns from a handler: messages to send, and what happened worth recording. */
export interface Step {
  readonly send: ReadonlyArray<RaftMessage>;
  /** The node won an election (a majority of votes) in this term. */
  readonly elected?: number;
  /** Entries applied to the state machine, in order. */
  readonly applied?: ReadonlyArray<Applied>;
  /** The node heard from a leader of its term (its election timer starts again). */
  readonly heardLeader?: boolean;
  /** A committed entry its binary cannot read: it applies nothing from there on (001 §152). */
  readonly unsupported?: { readonly index: number; readonly version: number };
  /** The node installed its leader's snapshot, up to `index` (an entry of `term`). */
  readonly installed?: { readonly index: number; readonly term: number };
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
  /** The node compacts its log every `snapshotEntries` applied entries; off: never (the log grows without bound). */
  readonly compactsLog: boolean;
  /** A snapshot covers what the node applied; off: its whole log, committed or not, which it then counts as applied. */
  readonly snapshotsCommittedOnly: boolean;
}

export const CORRECT_RAFT: RaftRules = { commitCurrentTermOnly: true, majorityElections: true, votesPersist: true, votesNeedUpToDateLog: true, appendChecksPrevious: true, lostStateFailsSafe: true, featuresWaitForAllVoters: true, compactsLog: true, snapshotsCommittedOnly: true };

/** The coordination state after `command`: a row that is not a coordination command leaves it as it was. */
export function applyRaftCommand(state: CoordinationState, command: RaftCommand): CoordinationState {
  return command.kind === 'ElectLeader' || command.kind === 'ChangeMembership' ? applyCoordination(state, command).state : state;
}
