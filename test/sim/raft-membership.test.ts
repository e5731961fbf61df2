// Membership changes on message-level consensus (001 §157 single-server changes, §59–§66, §267):
// the configuration a node holds is its log's latest change, committed or not; a run of
// raft-membership-change commits every requested change in order, the promoted learners vote in
// later elections, and the removed voter never wins one again.

import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../adapters/memory.ts';
import { initialCoordination } from '../../model/coordination-epoch.ts';
import { firstIncarnation } from '../../model/node-incarnation.ts';
import { append, emptyLog, type Log } from '../../model/raft-log.ts';
import { votersOf, learnersOf } from '../../model/cluster-membership.ts';
import type { FaultEvent } from '../../model/history.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { changePending, configurationAt } from '../../sim/raft/raft-config.ts';
import type { RaftCommand } from '../../sim/raft/raft-protocol.ts';
import { runScenario } from '../../sim/run.ts';

const leader = firstIncarnation('c1');
const change = (kind: 'add-learner' | 'promote' | 'remove', node: string): RaftCommand => ({ kind: 'ChangeMembership', term: 1, change: { kind, node }, caughtUp: true, leader, version: 1 });

describe('raft configuration', () => {
  it('is the latest change in the log, committed or not, and a change beyond the commit index is pending', () => {
    const snapshot = initialCoordination(['c1', 'c2', 'c3']);
    let log: Log<RaftCommand> = emptyLog();
    log = append(log, { term: 1, command: { kind: 'ElectLeader', term: 1, leader, roles: ['scheduler'], version: 1 } });
    log = append(log, { term: 1, command: change('add-learner', 'c4') });
    log = append(log, { term: 1, command: change('promote', 'c4') });
    expect(votersOf(configurationAt(log, snapshot))).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(learnersOf(configurationAt(log, snapshot, 2))).toEqual(['c4']);
    expect(votersOf(configurationAt(log, snapshot, 1))).toEqual(['c1', 'c2', 'c3']);
    expect(changePending(log, 2)).toBe(true);
    expect(changePending(log, 3)).toBe(false);
  });
});

describe('raft-membership-change', () => {
  it.each([1, 2, 3])('seed %i: every change is committed in order, the new voters vote, the removed voter never leads again', async (seed) => {
    const { history, valid } = await runScenario({ scenario: loadScenario('raft-membership-change'), seed, store: { name: 'memory', factory: createMemoryStore } });
    expect(valid).toBe(true);
    const faults = history.filter((event): event is FaultEvent => event.type === 'fault');
    const changes = faults.filter((event) => event.f === 'membership-change').map((event) => `${String(event.value.change)} ${String(event.value.node)}`);
    expect(changes.slice(0, 5)).toEqual(['bootstrap null', 'add-learner c4', 'promote c4', 'add-learner c5', 'promote c5']);
    const removal = faults.find((event) => event.f === 'membership-change' && event.value.change === 'remove')!;
    expect(removal).toBeDefined();
    const removed = String(removal.value.node);
    const elections = faults.filter((event) => event.f === 'raft-elected');
    expect(elections.some((event) => (event.value.votes as string[]).some((voter) => voter === 'c4' || voter === 'c5'))).toBe(true);
    expect(elections.filter((event) => event.index > removal.index && event.value.node === removed)).toEqual([]);
  });
});
