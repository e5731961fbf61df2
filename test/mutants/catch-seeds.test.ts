// seed 000 §277–§302 and the test lists of seed 001 (§259–§266, §276–§277), 000 §317 and 001 §340 (the
// invariants): the checker audit. Every mutant names the rule it breaks and the invariants that
// must catch it; each is caught at its pinned seed (its first catch by a named invariant, within
// the 50-seed budget of `testbed mutants`) on a plan the correct implementation passes, and
// together they make every history checker fire. The hunt runs without the shadow-model
// differential, so a catch is the history checker's. The catches are pinned in pinned-catches.ts.
// A store mutant no workload reaches (its declaration says why: `checkOnly`) has no catch here: the
// command-level check catches it (test/campaign/check.test.ts), and the hunt does not run it.
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../mutants/index.ts';
import { median } from '../../bench/sample.ts';
import { INVARIANT_NAMES, isInvariantName } from '../../model/checkers/index.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { correctExecutor, mutantExecutor } from '../../campaign/mutant-run.ts';
import { generatePlan } from '../../sim/run.ts';
import { PINNED_CATCHES as CATCHES } from './pinned-catches.ts';

const SEED_BUDGET = 50;
const MEDIAN_SEEDS_MAX = 20;

/** The mutants the hunt runs: all but those only the command-level check reaches. */
const HUNTED = MUTANTS.filter((m) => m.checkOnly === undefined);

describe('checker audit by rule mutants', () => {
  it('every hunted mutant names its rule and the invariants that must catch it, and has one pinned catch', () => {
    expect(HUNTED.length).toBeGreaterThanOrEqual(40);
    expect(CATCHES.map((c) => c.mutant).sort()).toEqual(HUNTED.map((m) => m.name).sort());
    for (const mutant of HUNTED) {
      expect(mutant.rule?.length ?? 0, mutant.name).toBeGreaterThan(10);
      expect(mutant.invariants?.length ?? 0, mutant.name).toBeGreaterThan(0);
      for (const name of mutant.invariants ?? []) expect(isInvariantName(name), `${mutant.name}: ${name}`).toBe(true);
    }
  });

  it(`every pinned catch is within ${SEED_BUDGET} seeds, on one of the mutant's scenarios, by one of its invariants; the median is at most ${MEDIAN_SEEDS_MAX}`, () => {
    for (const c of CATCHES) {
      const mutant = MUTANTS.find((m) => m.name === c.mutant)!;
      expect(c.seed, c.mutant).toBeLessThanOrEqual(SEED_BUDGET);
      expect(mutant.scenarios, c.mutant).toContain(c.scenario);
      expect(mutant.invariants, c.mutant).toContain(c.invariant);
    }
    expect(median(CATCHES.map((c) => c.seed))).toBeLessThanOrEqual(MEDIAN_SEEDS_MAX);
  });

  it('together the mutants make every history checker fire', () => {
    const caughtBy = new Set(CATCHES.map((c) => c.invariant));
    expect(INVARIANT_NAMES.filter((name) => !caughtBy.has(name))).toEqual([]);
  });

  for (const c of CATCHES) {
    it(`${c.mutant}: caught on ${c.scenario} seed ${c.seed} by ${c.invariant}, which the correct implementation keeps`, async () => {
      const mutant = MUTANTS.find((m) => m.name === c.mutant)!;
      const plan = generatePlan(loadScenario(c.scenario), c.seed);
      const broken = await mutantExecutor(mutant)(plan);
      expect(broken.violations.map((v) => v.invariant), broken.violations.map((v) => v.message).join('\n')).toContain(c.invariant);
      const correct = await correctExecutor()(plan);
      expect(correct.violations.filter((v) => v.invariant === c.invariant)).toEqual([]);
    });
  }
});
