// Shared by the scenario sweeps: runs one scenario over a range of seeds with the memory store.
import { describe, expect, it } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import type { Scenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';

/** Seeds per scenario (`npm run sweep:all` runs 500); SWEEP_SEEDS overrides it. */
export const SWEEP_SEEDS = Number(process.env['SWEEP_SEEDS'] ?? 100);

export interface SweepOutcome {
  readonly violated: ReadonlyArray<number>;
  readonly undecided: ReadonlyArray<number>;
  readonly firstMessage: string | null;
}

export async function sweep(scenario: Scenario, seeds: number): Promise<SweepOutcome> {
  const violated: number[] = [];
  const undecided: number[] = [];
  let firstMessage: string | null = null;
  for (let seed = 1; seed <= seeds; seed++) {
    const result = await runScenario({ scenario, seed, store: { name: 'memory', factory: createMemoryStore } });
    if (result.valid === true) continue;
    (result.valid === false ? violated : undecided).push(seed);
    firstMessage ??= `${result.replay}: ${result.violations[0]?.invariant}: ${result.violations[0]?.message}`;
  }
  return { violated, undecided, firstMessage };
}

/** The must-pass test of `scenarios`: no violation and no undecided run over SWEEP_SEEDS seeds each. */
export function describeMustPass(title: string, scenarios: ReadonlyArray<Scenario>): void {
  describe(title, () => {
    for (const scenario of scenarios) {
      it(`${scenario.name} (${scenario.sources.join(', ')}) holds over ${SWEEP_SEEDS} seeds`, async () => {
        const outcome = await sweep(scenario, SWEEP_SEEDS);
        expect(outcome.firstMessage).toBeNull();
        expect(outcome.violated).toEqual([]);
        expect(outcome.undecided).toEqual([]);
      });
    }
  });
}
