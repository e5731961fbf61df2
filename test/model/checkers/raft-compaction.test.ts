// The checkers of a compacted Raft log (001 §338, §340) on hand-made histories: raft-log-bounded
// judges what a node keeps beyond its snapshot, raft-log-narrow what the log replicates, and the
// safety checkers read a log whose compacted part is null and a snapshot a node installed.

import { describe, expect, test } from 'vitest';
import { raftLeaderCompleteness } from '../../../model/checkers/raft-leader-completeness.ts';
import { raftLogBounded } from '../../../model/checkers/raft-log-bounded.ts';
import { raftLogMatching } from '../../../model/checkers/raft-log-matching.ts';
import { raftLogNarrow } from '../../../model/checkers/raft-log-narrow.ts';
import { raftStateMachineSafety } from '../../../model/checkers/raft-state-machine-safety.ts';
import { HistoryBuilder } from './history-builder.ts';

const applied = (h: HistoryBuilder, node: string, index: number, term: number, extra: Record<string, unknown> = {}): number => h.fault('raft-applied', { node, process: `${node}#1`, index, term, leader: 's1#1', ...extra });
const snapshot = (h: HistoryBuilder, node: string, index: number, term: number, installed = false): number => h.fault('raft-snapshot', { node, process: `${node}#1`, index, term, installed });
const cluster = (snapshotEntries?: number): HistoryBuilder => {
  const h = new HistoryBuilder();
  h.fault('raft-cluster', { voters: ['s1', 's2', 's3'], version: 1, ...(snapshotEntries === undefined ? {} : { snapshotEntries }) });
  return h;
};

describe('raft-log-bounded', () => {
  test('a node that compacts every two entries passes, a catch-up of several entries in one step included', () => {
    const h = cluster(2);
    applied(h, 's1', 1, 1);
    applied(h, 's1', 2, 1);
    snapshot(h, 's1', 2, 1);
    // A follower that catches up applies three entries, then compacts, in one step (one time; a
    // leader taking its role may be recorded in between).
    applied(h.at(50), 's2', 1, 1);
    applied(h.at(50), 's2', 2, 1);
    applied(h.at(50), 's2', 3, 2);
    h.at(50).fault('leader-change', { term: 2, epoch: 2, leader: 's1#1' });
    snapshot(h.at(50), 's2', 3, 2);
    snapshot(h, 's3', 3, 2, true);
    applied(h, 's3', 4, 2);
    expect(raftLogBounded(h.build()).valid).toBe(true);
  });

  test('a node that keeps more applied entries than the setting is named, also when it compacts a step later; a run without compaction cannot be judged', () => {
    const h = cluster(2);
    applied(h, 's1', 1, 1);
    applied(h, 's1', 2, 1);
    applied(h, 's1', 3, 1);
    h.fault('crash', { node: 's2' });
    snapshot(h, 's1', 3, 1);
    const verdict = raftLogBounded(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/s1 applied entry 3 .* kept 3 applied entries .* compacts every 2/);
    expect(() => raftLogBounded(cluster().build())).toThrow(/snapshotEntries/);
  });

  test('a voter that lost its state starts again from an empty log', () => {
    const h = cluster(1);
    applied(h, 's1', 1, 1);
    snapshot(h, 's1', 1, 1);
    h.fault('voter-state-loss', { node: 's1', process: 's1#1' });
    applied(h, 's1', 1, 1);
    expect(raftLogBounded(h.build()).valid).toBe(true);
    applied(h, 's1', 2, 1);
    expect(raftLogBounded(h.build()).valid).toBe(false);
  });
});

describe('raft-log-narrow', () => {
  test('coordination commands pass; a job row applied from the log is named', () => {
    const h = cluster();
    applied(h, 's1', 1, 1);
    expect(raftLogNarrow(h.build()).valid).toBe(true);
    applied(h, 's1', 2, 1, { command: 'RecordJob' });
    const verdict = raftLogNarrow(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/s1 applied entry 2, a RecordJob command/);
  });
});

describe('the safety checkers over snapshots', () => {
  test('a compacted part of a log (null) is compared nowhere and stands for the entries it replaced', () => {
    const h = cluster();
    applied(h, 's1', 1, 1);
    applied(h, 's1', 2, 2);
    h.fault('raft-elected', { term: 3, node: 's2', process: 's2#1', votes: ['s2'], log: [null, 2] });
    h.fault('raft-elected', { term: 4, node: 's3', process: 's3#1', votes: ['s3'], log: [1, 2, 3] });
    expect(raftLeaderCompleteness(h.build()).valid).toBe(true);
    expect(raftLogMatching(h.build()).valid).toBe(true);
    h.fault('raft-elected', { term: 5, node: 's1', process: 's1#1', votes: ['s1'], log: [null, 1] });
    expect(raftLeaderCompleteness(h.build()).valid).toBe(false);
    expect(raftLogMatching(h.build()).valid).toBe(true);
  });

  test('an installed snapshot must end on the entry applied at its last index', () => {
    const h = cluster();
    applied(h, 's1', 2, 2);
    snapshot(h, 's2', 2, 2, true);
    expect(raftStateMachineSafety(h.build()).valid).toBe(true);
    snapshot(h, 's3', 2, 3, true);
    const verdict = raftStateMachineSafety(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/s3 installed a snapshot up to index 2 of term 3 .* s1 applied an entry of term 2/);
  });
});
