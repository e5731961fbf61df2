// seed 000 §271–§276, §297: with the recovery epoch switched off, failover and restore are caught — fencing regresses, a pre-restore lease is honoured — on a clear majority of seeds.
import { describe, expect, it } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { listScenarios, loadScenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';
import { sweep } from './sweep.ts';

const SEEDS = 60;

describe('-unmitigated scenarios', () => {
  const demos = listScenarios().filter((s) => s.expect === 'violation');

  it('exist for failover and restore', () => {
    expect(demos.map((s) => s.name)).toEqual(expect.arrayContaining(['db-failover-unmitigated', 'restore-unmitigated']));
  });

  for (const scenario of demos) {
    it(`${scenario.name} is caught on a clear majority of ${SEEDS} seeds`, async () => {
      const outcome = await sweep(scenario, SEEDS);
      expect(outcome.violated.length).toBeGreaterThanOrEqual(Math.ceil(SEEDS * 0.75));
    });
  }

  it('db-failover-unmitigated is caught by fencing and restore checks, and its mitigated twin is not', async () => {
    const store = { name: 'memory', factory: createMemoryStore };
    const bad = await runScenario({ scenario: loadScenario('db-failover-unmitigated'), seed: 1, store });
    const invariants = new Set(bad.violations.map((v) => v.invariant));
    expect(invariants.has('fencing-monotonic') || invariants.has('restore-invalidates')).toBe(true);
    const fault = bad.history.find((e) => e.type === 'fault' && e.f === 'db-failover');
    expect(fault?.type === 'fault' ? fault.value['blockedScopes'] : undefined).toEqual([]);
    const good = await runScenario({ scenario: loadScenario('db-failover'), seed: 1, store });
    expect(good.valid).toBe(true);
    const mitigated = good.history.find((e) => e.type === 'fault' && e.f === 'db-failover');
    expect((mitigated?.type === 'fault' ? (mitigated.value['blockedScopes'] as string[]) : []).length).toBeGreaterThan(0);
    expect(good.history.some((e) => e.type === 'ok' && e.f === 'ReconcileScope')).toBe(true);
  });
});
