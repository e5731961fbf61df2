// seed 000 §45–§51 (a final idempotency outcome), §93–§98 and §207–§212 (units come back when a
// permit or reservation runs out), §272–§276 (a restore and its recovery forget what they took
// away): a store that declares semantics of its own is judged by the history checkers alone. Each
// mutant of a class that once only the differential saw is caught at its pinned seed by its
// checker when the store says it has semantics of its own, and by the differential too when it
// does not; the correct store, declaring the same, passes that checker on the same plan.
import { describe, expect, it } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { findMutant, mutantStoreFactory } from '../../mutants/index.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { executePlan, generatePlan } from '../../sim/run.ts';
import { ownSemantics } from './fixtures/own-semantics.ts';

const CATCHES = [
  { mutant: 'complete-overwrites-final', scenario: 'idempotency-late-completion', seed: 9, invariant: 'idempotency-final' },
  { mutant: 'expired-units-still-counted', scenario: 'multi-resource-compensation', seed: 2, invariant: 'capacity-refusal' },
  { mutant: 'busy-from-lease-cache', scenario: 'restore', seed: 1, invariant: 'restore-forgets' },
] as const;

describe('stores with semantics of their own are judged by the history checkers', () => {
  for (const c of CATCHES) {
    it(`${c.mutant}: caught by ${c.invariant} on ${c.scenario} seed ${c.seed} without the differential, and by the differential with it`, async () => {
      const mutant = findMutant(c.mutant)!;
      const plan = generatePlan(loadScenario(c.scenario), c.seed);
      const own = await executePlan(plan, { store: { name: `own:${c.mutant}`, factory: ownSemantics(mutantStoreFactory(mutant, createMemoryStore)) } });
      const found = own.violations.map((v) => v.invariant);
      expect(found, own.violations.map((v) => v.message).join('\n')).toContain(c.invariant);
      expect(found).not.toContain('differential');
      const correct = await executePlan(plan, { store: { name: 'own:memory', factory: ownSemantics(createMemoryStore) } });
      expect(correct.violations.filter((v) => v.invariant === c.invariant)).toEqual([]);
      const compared = await executePlan(plan, { store: { name: `mutant:${c.mutant}`, factory: mutantStoreFactory(mutant, createMemoryStore), typedAnswers: true } });
      expect(compared.violations.map((v) => v.invariant)).toContain('differential');
    });
  }
});
