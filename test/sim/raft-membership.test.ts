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
import { loadScenario, parseScenario } from '../../scenarios/index.ts';
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

// A voter removed while it is down never receives its removal; when it comes back it stands again
// and again. The others ignore its vote requests (it is not a voter of their configuration), so the
// cluster keeps its leader instead of electing anew at each of its terms.
describe('a voter removed while it is down', () => {
  const base = loadScenario('raft-membership-change');
  const scenario = parseScenario(
    {
      ...base,
      name: 'raft-removed-while-down',
      workload: { ...base.workload, controllers: 4 },
      faults: {
        profile: { networkDelayMsMin: 1, networkDelayMsMax: 5 },
        scripted: [
          { f: 'member-add', at: 1_000, node: 'c4' },
          { f: 'member-promote', at: 1_500, node: 'c4' },
          { f: 'crash', at: 3_000, node: 'c3', downMs: 2_000 },
          { f: 'member-remove', at: 3_300, node: 'c3' },
        ],
      },
      coordination: { ...base.coordination, faults: {} },
    },
    'test',
  );

  it.each([1, 2, 3])('seed %i: it does not depose the leaders after its removal', async (seed) => {
    const { history, valid } = await runScenario({ scenario, seed, store: { name: 'memory', factory: createMemoryStore } });
    expect(valid).toBe(true);
    const faults = history.filter((event): event is FaultEvent => event.type === 'fault');
    const removal = faults.find((event) => event.f === 'membership-change' && event.value.change === 'remove')!;
    expect(removal.value.node).toBe('c3');
    // Without crashes after it, one election at most (the removal may have been proposed by c3's successor).
    expect(faults.filter((event) => event.f === 'raft-elected' && event.index > removal.index).length).toBeLessThanOrEqual(1);
  });
});
