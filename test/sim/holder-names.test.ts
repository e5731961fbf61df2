// workload.holderNames (001 §12–13): by default a controller holds leases under its incarnation's
// name (`c1#2`); with 'node' under its node's name (`c1`) across restarts, as hosts do. Then a
// restarted node asks again for a scope under the name its earlier lease carries, and only the
// token tells the two leases apart: a store that grants the holder of a live lease again is caught.

import { describe, expect, test } from 'vitest';
import { MUTANTS } from '../../mutants/index.ts';
import createMemoryStore from '../../adapters/memory.ts';
import type { StoreFactory } from '../../adapters/port.ts';
import type { HistoryEvent } from '../../model/history.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { generatePlan, runScenario } from '../../sim/run.ts';

const acquireHolders = (history: ReadonlyArray<HistoryEvent>) =>
  history.filter((e) => e.type === 'invoke' && e.f === 'Acquire').map((e) => ({ process: e.process, holder: (e.value as { holder: string }).holder }));

describe('lease holder names', () => {
  test("'node': every Acquire names the node, across incarnations; the plan carries it", async () => {
    const scenario = loadScenario('stable-holder-names');
    expect(generatePlan(scenario, 1).holderNames).toBe('node');
    const result = await runScenario({ scenario, seed: 1, store: { name: 'memory', factory: createMemoryStore } });
    expect(result.valid).toBe(true);
    const acquires = acquireHolders(result.history);
    expect(acquires.length).toBeGreaterThan(20);
    for (const { process, holder } of acquires) expect(process.startsWith(`${holder}#`)).toBe(true);
    // Some node asked under its name from a later incarnation than its first.
    expect(acquires.some(({ process }) => !process.endsWith('#1'))).toBe(true);
  });

  test('by default the holder is the incarnation', async () => {
    const result = await runScenario({ scenario: loadScenario('controller-crash-reconcile'), seed: 1, store: { name: 'memory', factory: createMemoryStore } });
    for (const { process, holder } of acquireHolders(result.history)) expect(process).toBe(holder);
    expect(generatePlan(loadScenario('controller-crash-reconcile'), 1).holderNames).toBeUndefined();
  });

  test('a lease-only store that grants the holder of a live lease again is caught', async () => {
    // A store of leases alone: the restarted controller has no intents to reconcile, asks for the
    // scope under its old name at once, and the broken store grants it while its old lease lives.
    const mutant = MUTANTS.find((m) => m.name === 'reentrant-acquire')!;
    const broken = mutant.wraps!(createMemoryStore);
    const leaseOnly: StoreFactory = async (options) => {
      const inner = await broken(options);
      return { name: 'lease-only reentrant', capabilities: { commands: ['Acquire', 'Renew', 'Release', 'Mutate'], referenceSemantics: false }, execute: (c) => inner.execute(c), close: () => inner.close() };
    };
    let caught = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const r = await runScenario({ scenario: loadScenario('stable-holder-names'), seed, store: { name: 'lease-only reentrant', factory: leaseOnly } });
      if (r.violations.some((v) => v.invariant === 'lease-exclusive' && /granted to (c\d) .* of \1 was valid/.test(v.message))) caught++;
    }
    expect(caught).toBeGreaterThan(0);
  });
});
