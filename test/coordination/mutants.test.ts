// seed 001 §90, §93, §262–§263, §296–§305: the boolean-leader-flag and lease-without-scheduler-epoch mutants are caught by the coordination scenarios on a plan the correct implementation passes, and shrink to a short counterexample.
import { describe, expect, it } from 'vitest';
import { findMutant } from '../../mutants/index.ts';
import { runMutants } from '../../campaign/mutant-run.ts';

const SEED_BUDGET = 200;
const SEEDS_TO_CATCH_MAX = 20;
/** docs/ARCHITECTURE.md "Performance targets": a coordinated job is submitted, listed and dispatched before its attempt runs. */
const SHRUNK_OPERATIONS_MAX = 24;

describe('coordination mutants', () => {
  for (const name of ['boolean-leader-flag', 'lease-without-scheduler-epoch']) {
    it(`${name} is caught within ${SEEDS_TO_CATCH_MAX} seeds and shrinks to at most ${SHRUNK_OPERATIONS_MAX} operations`, async () => {
      const mutant = findMutant(name);
      expect(mutant).toBeDefined();
      const [report] = await runMutants({ mutants: [mutant!], seeds: SEED_BUDGET });
      expect(report!.caught, report!.missingScenarios.join(', ')).toBe(true);
      expect(report!.seedsTried).toBeLessThan(SEEDS_TO_CATCH_MAX);
      expect(report!.violations[0]?.invariant).toBe('fenced-stale-leader');
      expect(report!.shrunkOperations, report!.counterexample ?? '').toBeLessThanOrEqual(SHRUNK_OPERATIONS_MAX);
      // The counterexample shows a deposed leader creating a lease after the new epoch reached the store.
      expect(report!.counterexample).toMatch(/AdvanceRoleEpoch[\s\S]*leader-change[\s\S]*AdvanceRoleEpoch[\s\S]*DispatchJob/);
    });
  }
});
