// docs/ARCHITECTURE.md "Layers" and "Time and determinism": every pinned regression seed gives its pinned trace
// hash on the correct implementation, passes (or, when -unmitigated, shows its violation), and
// catches the mutant it names on that very seed.
import { describe, expect, it } from 'vitest';
import { inProcessAdapter } from '../../mutants/in-process.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { REGRESSIONS } from '../../scenarios/regressions.ts';
import { runScenario } from '../../sim/run.ts';

const memory = inProcessAdapter('memory')!;

describe('pinned regression seeds', () => {
  it('every entry names a known scenario and mutant, once', () => {
    const keys = REGRESSIONS.map((r) => `${r.scenario}#${r.seed}#${r.catches?.mutant ?? ''}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of REGRESSIONS) {
      expect(() => loadScenario(r.scenario)).not.toThrow();
      if (r.catches !== undefined) expect(inProcessAdapter(`mutant:${r.catches.mutant}`), r.catches.mutant).not.toBeNull();
      expect(r.traceHash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  for (const r of REGRESSIONS) {
    it(`${r.scenario} seed ${r.seed}${r.catches === undefined ? '' : ` catches ${r.catches.mutant}`}: ${r.shows}`, async () => {
      const scenario = loadScenario(r.scenario);
      const correct = await runScenario({ scenario, seed: r.seed, store: memory.store });
      expect(correct.traceHash, `the behaviour of ${r.scenario} seed ${r.seed} changed; if on purpose, pin the new hash`).toBe(r.traceHash);
      expect(correct.valid).toBe(scenario.expect === 'pass' ? true : false);
      if (r.catches === undefined) return;
      const mutant = inProcessAdapter(`mutant:${r.catches.mutant}`)!;
      const broken = await runScenario({ scenario, seed: r.seed, store: mutant.store, ...(mutant.policy === undefined ? {} : { policy: mutant.policy }) });
      expect(broken.valid).toBe(false);
      expect(broken.violations.map((v) => v.invariant)).toContain(r.catches.invariant);
    });
  }
});
