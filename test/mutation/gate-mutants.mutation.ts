// The other half of the test StrykerJS runs against each mutant of the protocol code (`npm run
// mutation`, campaign/mutation/; seed 000 §277–§302): the gate ties each pass to a mutant of the
// catalogue caught on its own scenarios by one of its own invariants, so every hunted mutant must
// still be caught so within the hunt's seed budget. A protocol mutant that lets one escape (a branch only a broken policy
// takes, turned off; a step whose loss hides a store's bug from every workload) fails the gate,
// and is killed here by that verdict, never by a changed trace hash. The pinned catch
// (test/mutants/pinned-catches.ts) is tried first; only when it no longer catches is the hunt run
// seed after seed, as the gate runs it, so the answer is the hunt's.
// Not collected by `npm test` (its name does not end in .test.ts).
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../mutants/index.ts';
import { catchAt, DEFAULT_MUTANT_SEEDS, firstCatch } from '../../campaign/mutant-run.ts';
import { PINNED_CATCHES } from '../mutants/pinned-catches.ts';

describe("the gate's mutants", () => {
  for (const mutant of MUTANTS.filter((m) => m.checkOnly === undefined)) {
    it(`${mutant.name} is caught within ${DEFAULT_MUTANT_SEEDS} seeds of ${mutant.scenarios.join(', ')}`, async () => {
      const pinned = PINNED_CATCHES.find((c) => c.mutant === mutant.name);
      if (pinned !== undefined && (await catchAt(mutant, pinned.scenario, pinned.seed)) !== null) return;
      expect(await firstCatch(mutant, DEFAULT_MUTANT_SEEDS), `${mutant.name} escaped`).not.toBeNull();
    });
  }
});
