// seed 001 §93, §96, §283 with 000 §272–§276: a failover or restore puts an older image in place,
// whose role epochs may be older than the ones the coordination layer has committed; the recovery
// procedure writes the committed epochs back before the database takes connections, so a deposed
// leader's guard is fenced as it was before.
import { describe, expect, it } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';

describe('role epochs after an image replacement', () => {
  it('the store holds the committed role epoch again right after each failover and restore (jobs-db-failover, 10 seeds)', async () => {
    for (let seed = 1; seed <= 10; seed++) {
      const { history } = await runScenario({ scenario: loadScenario('jobs-db-failover'), seed, store: { name: 'memory', factory: createMemoryStore } });
      const replaced = history.filter((e) => e.type === 'fault' && (e.f === 'db-failover' || e.f === 'db-restore'));
      expect(replaced.length, `seed ${seed}`).toBe(2);
      for (const fault of replaced) {
        // The last election before the fault committed this epoch.
        const committed = (history.filter((e) => e.type === 'fault' && e.f === 'leader-change' && e.index < fault.index).at(-1)?.value as { epoch?: number } | undefined)?.epoch;
        const written = history.find((e) => e.index > fault.index && e.type === 'ok' && e.f === 'AdvanceRoleEpoch' && e.process.startsWith('recovery-roles#'));
        expect(written, `seed ${seed}: role epochs written back after #${fault.index}`).toBeDefined();
        expect(written!.time).toBe(fault.time);
        const answer = written!.value as { epoch?: number; currentEpoch?: number };
        if (committed !== undefined) expect(answer.epoch ?? answer.currentEpoch).toBeGreaterThanOrEqual(committed);
      }
    }
  });
});
