// docs/ARCHITECTURE.md "Mutants": the catalogue holds at least ten mutants, each with exactly one documented bug, a cited source (seed 000 section or seed 002/003 commit) and target scenarios.
import { describe, expect, it } from 'vitest';
import { findMutant, mutantPolicy, MUTANTS } from '../../mutants/index.ts';
import { POSTGRES_MUTANTS } from '../../mutants/sql/index.ts';
import { GATE_CATALOGUE } from '../../reports/gate-catalogue.ts';
import { CORRECT_POLICY, POLICY_FLAGS } from '../../model/controller-policy.ts';
import { isInvariantName, type InvariantName } from '../../model/checkers/index.ts';
import { loadScenario } from '../../scenarios/index.ts';

describe('mutant catalogue', () => {
  it('has at least forty mutants with unique kebab-case names', () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(40);
    const names = MUTANTS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  for (const mutant of MUTANTS) {
    describe(mutant.name, () => {
      it('is either a store-level or a controller-level bug, never both', () => {
        expect((mutant.wraps === undefined) !== (mutant.flips === undefined)).toBe(true);
      });

      it('names its bug, cites a seed and targets at least one scenario, or says why no workload reaches it', () => {
        expect(mutant.bug.length).toBeGreaterThan(10);
        expect(mutant.source).toMatch(/\b00[0-3]\b/);
        if (mutant.checkOnly === undefined) expect(mutant.scenarios.length).toBeGreaterThan(0);
        else expect(mutant.checkOnly.length).toBeGreaterThan(10);
      });

      if (mutant.checkOnly === undefined) {
        it('names the rule it breaks, the invariants that must catch it, and scenarios that exist and judge them', () => {
          expect(mutant.rule.length).toBeGreaterThan(10);
          expect(mutant.invariants?.length ?? 0).toBeGreaterThan(0);
          for (const name of mutant.invariants ?? []) expect(isInvariantName(name), name).toBe(true);
          const judged = new Set(mutant.scenarios.flatMap((name) => loadScenario(name).invariants));
          expect((mutant.invariants ?? []).some((name) => judged.has(name as InvariantName))).toBe(true);
        });
      } else {
        it('is a store bug only the command-level check reaches: it names its rule, and no scenario or invariant that would hunt it', () => {
          expect(mutant.wraps).toBeDefined();
          expect(mutant.rule.length).toBeGreaterThan(10);
          expect(mutant.scenarios).toEqual([]);
          expect(mutant.invariants ?? []).toEqual([]);
        });
      }

      if (mutant.flips !== undefined) {
        it('flips exactly one policy flag away from the correct protocol', () => {
          const policy = mutantPolicy(mutant)!;
          const flipped = Object.entries(policy).filter(([flag, value]) => CORRECT_POLICY[flag as keyof typeof CORRECT_POLICY] !== value);
          expect(Object.keys(policy).every((flag) => (POLICY_FLAGS as ReadonlyArray<string>).includes(flag))).toBe(true);
          expect(flipped).toHaveLength(1);
        });
      }
    });
  }

  it('finds a mutant by name or by adapter name, and nothing else', () => {
    expect(findMutant('no-fencing-check')?.name).toBe('no-fencing-check');
    expect(findMutant('mutant:no-fencing-check')?.name).toBe('no-fencing-check');
    expect(findMutant('memory')).toBeUndefined();
    expect(findMutant('mutant:')).toBeUndefined();
  });

  it('credits gate rows that exist, and a row lists exactly the mutants that credit it', async () => {
    const ids = new Set(GATE_CATALOGUE.map((g) => g.id));
    for (const mutant of MUTANTS) for (const row of mutant.rows) expect(ids.has(row), `${mutant.name} → ${row}`).toBe(true);
    for (const gate of GATE_CATALOGUE) expect(gate.proofs.mutants).toEqual(MUTANTS.filter((m) => (m.rows as ReadonlyArray<string>).includes(gate.id)).map((m) => m.name));
    // The gate rows read the mutants the simulator hunts; a SQL race proves its rows through the suites that run it.
    for (const mutant of POSTGRES_MUTANTS) expect(mutant.rows, mutant.name).toEqual([]);
    expect(MUTANTS.filter((m) => m.rows.length === 0).map((m) => m.name)).toEqual([]);
  });

  it('declares every mutant, whatever makes its bug, in one shape with exactly one of flips, wraps and patches', async () => {
    const all = [...MUTANTS, ...POSTGRES_MUTANTS];
    expect(new Set(all.map((m) => m.name)).size).toBe(all.length);
    for (const mutant of all) {
      expect([mutant.flips, mutant.wraps, mutant.patches].filter((how) => how !== undefined), mutant.name).toHaveLength(1);
      expect(mutant.rule.length, mutant.name).toBeGreaterThan(5);
      for (const name of mutant.scenarios) expect(() => loadScenario(name), `${mutant.name} → ${name}`).not.toThrow();
    }
  });
});
