// Reads the message-level consensus record from a history (sim/raft/): `raft-elected`
// `{ term, node, process, votes, log }` when a candidate won a majority of votes, its log then
// given as the terms of its entries (null where a snapshot replaced them); `raft-applied` `{ node,
// process, index, term, leader }` when a node applied an entry to its coordination state machine;
// `raft-snapshot` `{ node, process, index, term, installed }` when a node's log up to `index` was
// replaced by a snapshot. The Raft safety checkers read these.

import { assert } from '../assert.ts';
import type { FaultEvent, History } from '../history.ts';
import { asFields, faultsOf, requireNumber, requireString } from './operations.ts';

export interface RaftElection {
  readonly event: FaultEvent;
  readonly term: number;
  readonly node: string;
  /** The terms of the winner's log entries, index 1 first; null where its snapshot replaced them. */
  readonly log: ReadonlyArray<number | null>;
}

export interface RaftApplied {
  readonly event: FaultEvent;
  readonly node: string;
  readonly index: number;
  readonly term: number;
  /** Who the entry elects: what the state machine did with it. */
  readonly leader: string;
}

export function raftElections(history: History): ReadonlyArray<RaftElection> {
  return faultsOf(history, ['raft-elected']).map((event) => {
    const log = asFields(event.value)?.['log'];
    assert(Array.isArray(log) && log.every((t) => t === null || Number.isInteger(t)), `#${event.index}: raft-elected gives the winner's log as terms`);
    return { event, term: requireNumber(event.value, 'term', event.index), node: requireString(event.value, 'node', event.index), log: log as ReadonlyArray<number | null> };
  });
}

export function raftApplied(history: History): ReadonlyArray<RaftApplied> {
  return faultsOf(history, ['raft-applied']).map((event) => ({
    event,
    node: requireString(event.value, 'node', event.index),
    index: requireNumber(event.value, 'index', event.index),
    term: requireNumber(event.value, 'term', event.index),
    leader: requireString(event.value, 'leader', event.index),
  }));
}

export interface RaftSnapshot {
  readonly event: FaultEvent;
  readonly node: string;
  /** The last index the snapshot covers, and the term of the entry there. */
  readonly index: number;
  readonly term: number;
  /** Sent by the leader (InstallSnapshot), rather than taken by the node of what it applied. */
  readonly installed: boolean;
}

export function raftSnapshots(history: History): ReadonlyArray<RaftSnapshot> {
  return faultsOf(history, ['raft-snapshot']).map((event) => ({
    event,
    node: requireString(event.value, 'node', event.index),
    index: requireNumber(event.value, 'index', event.index),
    term: requireNumber(event.value, 'term', event.index),
    installed: asFields(event.value)?.['installed'] === true,
  }));
}
