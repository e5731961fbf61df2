// The Raft voter of the simulator (sim/raft/raft-node.ts), driven message by message: the Raft
// paper's Figure 8, in which a leader that counts replicas of an entry of an earlier term commits
// it and a later leader overwrites it; the correct commit rule does not commit it (001 §283, §340).
// Log compaction (001 §338): a node keeps its applied entries as a snapshot, a follower the log no
// longer reaches is sent it, and a restart starts from it.

import { describe, expect, test } from 'vitest';
import { firstIncarnation } from '../../model/node-incarnation.ts';
import { RaftNode } from '../../sim/raft/raft-node.ts';
import { CORRECT_RAFT, type RaftMessage, type Step } from '../../sim/raft/raft-protocol.ts';

const NAMES = ['s1', 's2', 's3', 's4', 's5'];

function cluster(commitCurrentTermOnly: boolean, snapshotEntries = 0): Map<string, RaftNode> {
  return new Map(NAMES.map((name) => [name, new RaftNode(name, NAMES, { ...CORRECT_RAFT, commitCurrentTermOnly }, snapshotEntries)]));
}

const propose = (node: RaftNode): void => node.propose({ kind: 'ElectLeader', term: node.term, leader: firstIncarnation(node.name), roles: ['scheduler'], version: 1 });

/** Delivers the messages of `step` to `to` (every recipient when absent), and their answers back, until quiet. */
function deliver(nodes: Map<string, RaftNode>, step: Step, to: ReadonlyArray<string> = NAMES, applied: Array<{ node: string; index: number; term: number }> = []): void {
  const queue: RaftMessage[] = step.send.filter((m) => to.includes(m.to));
  while (queue.length > 0) {
    const message = queue.shift()!;
    const next = nodes.get(message.to)!.receive(message);
    for (const a of next.applied ?? []) applied.push({ node: message.to, index: a.index, term: a.entry.term });
    queue.push(...next.send.filter((m) => to.includes(m.to) && to.includes(m.from)));
  }
}

/** `name` stands for election, term after term, with only `voters` reachable, until it wins. */
function lead(nodes: Map<string, RaftNode>, name: string, voters: ReadonlyArray<string>): RaftNode {
  const node = nodes.get(name)!;
  for (let attempt = 0; attempt < 4 && node.role !== 'leader'; attempt++) deliver(nodes, node.startElection(), [name, ...voters]);
  return node;
}

/**
 * Heartbeats from `leader` to `follower`, which refuses the appends whose previous entry it lacks,
 * until the leader's next index for it is inside the snapshot (four rounds at most); returns the
 * last message the leader sent it.
 */
function heartbeatUntilSnapshot(leader: RaftNode, follower: RaftNode): RaftMessage {
  let sent = leader.heartbeat().send.find((m) => m.to === follower.name)!;
  for (let round = 0; round < 4 && sent.type === 'append'; round++) {
    for (const reply of follower.receive(sent).send) leader.receive(reply);
    sent = leader.heartbeat().send.find((m) => m.to === follower.name)!;
  }
  return sent;
}

function figure8(commitCurrentTermOnly: boolean): Array<{ node: string; index: number; term: number }> {
  const nodes = cluster(commitCurrentTermOnly);
  const applied: Array<{ node: string; index: number; term: number }> = [];
  // (a) s1 leads term 1; its entry reaches only s2 before it crashes.
  const s1 = lead(nodes, 's1', ['s2', 's3']);
  expect(s1.role).toBe('leader');
  propose(s1);
  deliver(nodes, s1.heartbeat(), ['s1', 's2'], applied);
  s1.restart();
  // (b) s5 leads term 2 with s3 and s4; its entry at the same index reaches no one before it crashes.
  const s5 = lead(nodes, 's5', ['s3', 's4']);
  expect(s5.role).toBe('leader');
  propose(s5);
  s5.restart();
  // (c) s1 leads term 3 with s2 and s3, and brings s3 up to its log before it has an entry of its own.
  lead(nodes, 's1', ['s2', 's3']);
  expect(s1.role).toBe('leader');
  for (let round = 0; round < 3; round++) deliver(nodes, s1.heartbeat(), ['s1', 's2', 's3'], applied);
  s1.restart();
  // (d) s5, whose last entry is of a later term, leads term 4 with s2, s3, s4 and replicates its log.
  lead(nodes, 's5', ['s2', 's3', 's4']);
  expect(s5.role).toBe('leader');
  propose(s5);
  for (let round = 0; round < 3; round++) deliver(nodes, s5.heartbeat(), ['s2', 's3', 's4', 's5'], applied);
  return applied;
}

describe('Raft voter', () => {
  test('Figure 8: counting replicas of an earlier term commits an entry a later leader overwrites', () => {
    const applied = figure8(false);
    const atOne = new Set(applied.filter((a) => a.index === 1).map((a) => a.term));
    expect(atOne.size).toBe(2);
  });

  test('Figure 8 with the correct rule: the earlier entry is never committed, every node applies the same', () => {
    const applied = figure8(true);
    const atOne = new Set(applied.filter((a) => a.index === 1).map((a) => a.term));
    expect(atOne.size).toBe(1);
  });

  test('compaction: the leader keeps a snapshot of what it applied; a follower behind it installs it; a restart starts from it', () => {
    const nodes = cluster(true, 2);
    const s1 = nodes.get('s1')!;
    const s5 = nodes.get('s5')!;
    // Three terms of s1 with s2..s4, while s5 hears nothing.
    for (let term = 0; term < 3; term++) {
      lead(nodes, 's1', ['s2', 's3', 's4']);
      propose(s1);
      for (let round = 0; round < 2; round++) deliver(nodes, s1.heartbeat(), ['s1', 's2', 's3', 's4']);
      s1.stepDown();
    }
    expect([s1.log.base, s1.commitIndex, s5.log.base]).toEqual([2, 3, 0]);
    lead(nodes, 's1', ['s2', 's3', 's4']);
    const applied: Array<{ node: string; index: number; term: number }> = [];
    const sent = heartbeatUntilSnapshot(s1, s5);
    expect(sent.type).toBe('snapshot');
    const installed = s5.receive(sent);
    expect(installed.installed).toEqual({ index: 2, term: s1.log.baseTerm });
    expect([s5.commitIndex, s5.lastApplied, s5.applied.epoch]).toEqual([2, 2, 2]);
    for (const reply of installed.send) s1.receive(reply);
    deliver(nodes, s1.heartbeat(), NAMES, applied);
    expect(applied.filter((a) => a.node === 's5').map((a) => a.index)).toEqual([3]);
    s5.restart();
    expect([s5.commitIndex, s5.lastApplied, s5.applied.epoch]).toEqual([s5.log.base, s5.log.base, s5.snapshot.epoch]);
  });

  test('a snapshot built from commands of a newer version is refused by a binary that cannot read them (001 §152)', () => {
    const nodes = cluster(true, 1);
    const s1 = nodes.get('s1')!;
    const s5 = nodes.get('s5')!;
    lead(nodes, 's1', ['s2', 's3', 's4']);
    s1.propose({ kind: 'ElectLeader', term: s1.term, leader: firstIncarnation('s1'), roles: ['scheduler'], version: 2 });
    for (const name of ['s1', 's2', 's3', 's4']) nodes.get(name)!.version = 2;
    for (let round = 0; round < 2; round++) deliver(nodes, s1.heartbeat(), ['s1', 's2', 's3', 's4']);
    expect([s1.log.base, s1.snapshotVersion]).toEqual([1, 2]);
    const sent = heartbeatUntilSnapshot(s1, s5);
    expect(sent.type).toBe('snapshot');
    const refused = s5.receive(sent);
    expect([refused.unsupported, refused.installed, s5.lastApplied, refused.send]).toEqual([{ index: 1, version: 2 }, undefined, 0, []]);
  });
});
