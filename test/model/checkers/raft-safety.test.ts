// The Raft safety checkers (001 §283, §340) on hand-made histories: each passes a consistent
// record and names what breaks its rule.

import { describe, expect, test } from 'vitest';
import { raftElectionSafety } from '../../../model/checkers/raft-election-safety.ts';
import { raftLeaderCompleteness } from '../../../model/checkers/raft-leader-completeness.ts';
import { raftLogMatching } from '../../../model/checkers/raft-log-matching.ts';
import { raftStateMachineSafety } from '../../../model/checkers/raft-state-machine-safety.ts';
import { featureActivation } from '../../../model/checkers/feature-activation.ts';
import { drainedLeaderStops } from '../../../model/checkers/drained-leader-stops.ts';
import { clusterDoctorChecker } from '../../../model/checkers/cluster-doctor.ts';
import { HistoryBuilder } from './history-builder.ts';

const elected = (h: HistoryBuilder, term: number, node: string, log: number[]): number => h.fault('raft-elected', { term, node, process: `${node}#1`, votes: [node], log });
const applied = (h: HistoryBuilder, node: string, index: number, term: number, leader: string): number => h.fault('raft-applied', { node, process: `${node}#1`, index, term, leader });

describe('raft-election-safety', () => {
  test('one winner per term passes; two winners of one term are named', () => {
    const h = new HistoryBuilder();
    elected(h, 1, 's1', []);
    elected(h, 2, 's2', [1]);
    expect(raftElectionSafety(h.build()).valid).toBe(true);
    elected(h, 2, 's3', [1]);
    const verdict = raftElectionSafety(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/term 2 has two leaders: s2 .* and s3/);
  });
});

describe('raft-log-matching', () => {
  test('logs that share an entry agree before it; logs that share one but differ before it are named', () => {
    const h = new HistoryBuilder();
    elected(h, 3, 's1', [1, 2]);
    elected(h, 4, 's2', [1, 3]);
    elected(h, 5, 's3', [1, 2, 4]);
    expect(raftLogMatching(h.build()).valid).toBe(true);
    elected(h, 6, 's4', [1, 3, 4]);
    const verdict = raftLogMatching(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/same entry \(term 4\) at index 3 but differ at index 2/);
  });
});

describe('raft-leader-completeness', () => {
  test('a leader elected after an entry was applied holds it; one that lacks it is named', () => {
    const h = new HistoryBuilder();
    applied(h, 's1', 1, 1, 's1#1');
    elected(h, 2, 's2', [1]);
    expect(raftLeaderCompleteness(h.build()).valid).toBe(true);
    elected(h, 3, 's3', [2]);
    const verdict = raftLeaderCompleteness(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/s3 won term 3 .* without the committed entry 1 of term 1/);
  });

  test('a leader of a term no higher than the highest won when the entry was applied may lack it, even if its victory is recorded later', () => {
    const h = new HistoryBuilder();
    elected(h, 10, 's3', []);
    applied(h, 's3', 1, 10, 's3#1');
    // Term 9's votes were cast before term 10 began and counted late: Raft's figure 8, no violation.
    elected(h, 9, 's1', []);
    expect(raftLeaderCompleteness(h.build()).valid).toBe(true);
    elected(h, 11, 's2', []);
    const verdict = raftLeaderCompleteness(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/s2 won term 11 .* without the committed entry 1 of term 10/);
  });
});

describe('raft-state-machine-safety', () => {
  test('every node applying the same entry at an index passes, a restart included; two entries at one index are named', () => {
    const h = new HistoryBuilder();
    applied(h, 's1', 1, 1, 's1#1');
    applied(h, 's2', 1, 1, 's1#1');
    applied(h, 's1', 1, 1, 's1#1');
    expect(raftStateMachineSafety(h.build()).valid).toBe(true);
    applied(h, 's3', 1, 2, 's3#1');
    const verdict = raftStateMachineSafety(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/index 1 was applied as two entries/);
  });
});

describe('feature-activation', () => {
  test('a command version is applied only once every voter reads it', () => {
    const h = new HistoryBuilder();
    h.fault('raft-cluster', { voters: ['s1', 's2'], version: 1 });
    h.fault('raft-applied', { node: 's1', process: 's1#1', index: 1, term: 1, leader: 's1#1', version: 1 });
    h.fault('voter-upgrade', { node: 's1', process: 's1#1', version: 2 });
    expect(featureActivation(h.build()).valid).toBe(true);
    h.fault('raft-applied', { node: 's1', process: 's1#2', index: 2, term: 2, leader: 's1#2', version: 2 });
    const verdict = featureActivation(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/entry 2 of command version 2 .* while voter s2 ran a binary that reads up to version 1/);
    const later = new HistoryBuilder();
    later.fault('raft-cluster', { voters: ['s1', 's2'], version: 1 });
    later.fault('voter-upgrade', { node: 's1', process: 's1#1', version: 2 });
    later.fault('voter-upgrade', { node: 's2', process: 's2#1', version: 2 });
    later.fault('raft-applied', { node: 's1', process: 's1#2', index: 1, term: 2, leader: 's1#2', version: 2 });
    expect(featureActivation(later.build()).valid).toBe(true);
  });
});

describe('drained-leader-stops', () => {
  test('a drained leader starts no guarded lease creation until it leads again', () => {
    const h = new HistoryBuilder();
    const guard = { role: 'scheduler', epoch: 3, holder: 'c1#1' };
    h.invoke('c1#1:lead3', 'Acquire', { kind: 'Acquire', scope: 'env', holder: 'c1#1:a1', ttlMs: 1000, guard });
    h.fault('leader-transfer', { process: 'c1#1', node: 'c1', to: 'c2' });
    h.invoke('c2#1:lead4', 'Acquire', { kind: 'Acquire', scope: 'env', holder: 'c2#1:a1', ttlMs: 1000, guard: { ...guard, epoch: 4, holder: 'c2#1' } });
    expect(drainedLeaderStops(h.build()).valid).toBe(true);
    h.invoke('c1#1:lead3', 'Acquire', { kind: 'Acquire', scope: 'env', holder: 'c1#1:a2', ttlMs: 1000, guard });
    const verdict = drainedLeaderStops(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/c1#1:lead3 started a scheduler lease creation .* after it handed leadership on/);
    const again = new HistoryBuilder();
    again.fault('leader-transfer', { process: 'c1#1', node: 'c1', to: 'c2' });
    again.fault('leader-change', { term: 9, epoch: 9, leader: 'c1#1', voters: 3, votes: ['c1', 'c3'] });
    again.invoke('c1#1:lead9', 'Acquire', { kind: 'Acquire', scope: 'env', holder: 'c1#1:a3', ttlMs: 1000, guard: { ...guard, epoch: 9 } });
    expect(drainedLeaderStops(again.build()).valid).toBe(true);
  });
});

describe('cluster-doctor', () => {
  test('a leader that takes its role below the epoch the store already holds is found; at or above it is healthy', () => {
    const h = new HistoryBuilder();
    h.fault('leader-change', { term: 1, epoch: 1, leader: 'c1#1', voters: 3, votes: ['c1', 'c2'] });
    h.op('c1#1:lead1', { kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: 2 }, { kind: 'RoleEpochAdvanced', role: 'scheduler', epoch: 2 });
    h.fault('leader-change', { term: 2, epoch: 2, leader: 'c2#1', voters: 3, votes: ['c2', 'c3'] });
    expect(clusterDoctorChecker(h.build()).valid).toBe(true);
    h.fault('leader-change', { term: 3, epoch: 1, leader: 'c3#1', voters: 3, votes: ['c1', 'c3'] });
    const verdict = clusterDoctorChecker(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/db-epoch-ahead: c3#1 took its role with coordination epoch 1 .* while the store already held epoch 2 for role scheduler/);
  });

  test('a leader of an older term that takes its role late is a stale view, not a coordination state behind the store', () => {
    // raft-failover seed 4294960153: c1 led term 1 and was paused; c3 led term 3 and advanced the
    // store to epoch 2; c1 resumed and applied its own committed term-1 entry.
    const h = new HistoryBuilder();
    h.fault('leader-change', { term: 3, epoch: 2, leader: 'c3#1', voters: 3, votes: ['c2', 'c3'] });
    h.op('c3#1:lead3', { kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: 2 }, { kind: 'RoleEpochAdvanced', role: 'scheduler', epoch: 2 });
    h.fault('leader-change', { term: 1, epoch: 1, leader: 'c1#1', voters: 3, votes: ['c1', 'c2'] });
    expect(clusterDoctorChecker(h.build()).valid).toBe(true);
    // A newer term whose epoch is below the store's is still found.
    h.fault('leader-change', { term: 4, epoch: 1, leader: 'c2#1', voters: 3, votes: ['c1', 'c2'] });
    expect(clusterDoctorChecker(h.build()).valid).toBe(false);
  });
});
