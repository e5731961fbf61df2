// Message-level consensus in the simulator (sim/raft/raft-service.ts; 001 §283, §340, §167–§169):
// runs are deterministic to the seed; a leader holds its role only once its own entry is committed;
// every node applies the same entries; a voter that lost its durable state never votes again.

import { describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import type { FaultEvent } from '../../model/history.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';
import { expectSameHashForSameSeed, hashInChildProcess } from './same-seed.ts';

const store = { name: 'memory', factory: createMemoryStore };

const faults = (history: ReadonlyArray<{ type: string }>, f: string): FaultEvent[] => history.filter((e): e is FaultEvent => e.type === 'fault' && (e as FaultEvent).f === f);

describe('raft consensus in the simulator', () => {
  test('the same seed gives the same trace hash, in this process and another; another seed differs', async () => {
    const a = await expectSameHashForSameSeed(loadScenario('raft-failover'), 3);
    expect(hashInChildProcess('raft-failover', 3)).toBe(`${a.traceHash} ${a.events}`);
  });

  test('a leader wins its votes, then its own entry is committed, and only then holds the role; terms and epochs rise', async () => {
    const result = await runScenario({ scenario: loadScenario('raft-failover'), seed: 2, store });
    expect(result.valid).toBe(true);
    const elections = faults(result.history, 'raft-elected');
    const changes = faults(result.history, 'leader-change');
    expect(elections.length).toBeGreaterThan(2);
    expect(changes.length).toBeGreaterThan(2);
    for (const change of changes) {
      const won = elections.find((e) => e.value.term === change.value.term && e.value.process === change.value.leader);
      expect(won, `term ${String(change.value.term)}`).toBeDefined();
      expect(won!.index).toBeLessThan(change.index);
      const applied = faults(result.history, 'raft-applied').find((e) => e.value.term === change.value.term && e.value.leader === change.value.leader && e.index < change.index);
      expect(applied, `the entry of term ${String(change.value.term)} was applied before the role`).toBeDefined();
    }
    const epochs = changes.map((c) => c.value.epoch as number);
    expect(epochs).toEqual([...epochs].sort((x, y) => x - y));
    // Messages were lost and duplicated, and the log still converged: every index applied means one entry.
    expect(result.violations).toEqual([]);
  });

  test('a voter that lost its durable state never votes or leads again in the run', async () => {
    let checked = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const result = await runScenario({ scenario: loadScenario('raft-voter-state-loss'), seed, store });
      expect(result.valid, `seed ${seed}`).toBe(true);
      for (const loss of faults(result.history, 'voter-state-loss')) {
        const node = loss.value.node as string;
        const later = faults(result.history, 'raft-elected').filter((e) => e.index > loss.index);
        expect(later.every((e) => e.value.node !== node && !(e.value.votes as string[]).includes(node)), `seed ${seed}: ${node}`).toBe(true);
        if (later.length > 0) checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  test('rolling upgrade: the new command version is used once every voter runs the new binary, and not before', async () => {
    let used = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const result = await runScenario({ scenario: loadScenario('raft-rolling-upgrade'), seed, store });
      expect(result.valid, `seed ${seed}`).toBe(true);
      const upgrades = faults(result.history, 'voter-upgrade');
      expect(upgrades.map((u) => u.value.node)).toEqual(['c1', 'c2', 'c3']);
      const newer = faults(result.history, 'raft-applied').filter((e) => e.value.version === 2);
      expect(newer.every((e) => e.index > upgrades[2]!.index), `seed ${seed}`).toBe(true);
      used += newer.length;
    }
    expect(used).toBeGreaterThan(0);
  });
});
