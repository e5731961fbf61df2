// docs/ARCHITECTURE.md "Performance targets" and seeds 000/002/003: every mutant is caught by one of its scenarios within 200 seeds (median under 20), on a plan the correct implementation passes, and shrinks to a counterexample of at most 12 operations (history up to the violation, a waiter's identical polls counted once).
import { afterAll, describe, expect, it } from 'vitest';
import { MUTANTS } from '../../adapters/mutants/index.ts';
import { runMutants, type MutantReport } from '../../sim/mutant-run.ts';

const SEED_BUDGET = 200;
const MEDIAN_SEEDS_MAX = 20;
const SHRUNK_OPERATIONS_MAX = 12;

const reports: MutantReport[] = [];

function median(values: ReadonlyArray<number>): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

describe('every mutant is caught', () => {
  for (const mutant of MUTANTS) {
    it(`${mutant.name}: caught within ${SEED_BUDGET} seeds, shrunk to at most ${SHRUNK_OPERATIONS_MAX} operations`, async () => {
      const [report] = await runMutants({ mutants: [mutant], seeds: SEED_BUDGET });
      expect(report).toBeDefined();
      reports.push(report!);
      expect(report!.caught, `${mutant.name} not caught in ${mutant.scenarios.join(', ')} (missing: ${report!.missingScenarios.join(', ') || 'none'})`).toBe(true);
      expect(report!.violations.length).toBeGreaterThan(0);
      expect(report!.replay).toBe(`npx testbed run --scenario ${report!.scenario} --seed ${report!.failure!.seed} --adapter mutant:${mutant.name}`);
      expect(report!.shrunkOperations, report!.counterexample ?? '').toBeLessThanOrEqual(SHRUNK_OPERATIONS_MAX);
    });
  }

  it(`the median number of seeds to catch is under ${MEDIAN_SEEDS_MAX} (an uncaught mutant counts as beyond the budget)`, () => {
    expect(reports).toHaveLength(MUTANTS.length);
    expect(median(reports.map((r) => (r.caught ? r.seedsTried : SEED_BUDGET + 1)))).toBeLessThan(MEDIAN_SEEDS_MAX);
  });

  afterAll(() => {
    const rows = reports.map((r) => `${r.name.padEnd(40)} ${String(r.caught).padEnd(6)} seeds=${String(r.seedsTried).padStart(3)} ops=${String(r.shrunkOperations ?? "-").padStart(2)} calls=${String(r.shrunkCalls ?? "-").padStart(3)} steps=${r.shrunkSteps ?? "-"}/${r.originalSteps ?? "-"} ${r.scenario ?? ''}`);
    const caught = reports.filter((r) => r.caught).map((r) => r.seedsTried);
    console.info(`mutation score ${caught.length}/${reports.length}, median seeds to catch ${caught.length > 0 ? median(caught) : '-'}\n${rows.join('\n')}`);
  });
});
