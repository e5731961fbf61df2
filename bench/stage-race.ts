// Time to the first failure of the two stages, side by side, for every store mutant: the
// command-level check (campaign/check/) and a sweep of every scenario that must pass, seed 1 of
// each, then seed 2 (as `sweep --scenario all --stop-at-first` runs it). Neither figure includes
// shrinking.

import { inProcessAdapter } from '../mutants/in-process.ts';
import { MUTANTS, type Mutant } from '../mutants/index.ts';
import { checkStore } from '../campaign/check/index.ts';
import { listScenarios } from '../scenarios/index.ts';
import { runScenario } from '../sim/run.ts';

export interface StageRace {
  readonly name: string;
  /** Command-level check: ms to the first divergent sequence, and the shrunk counterexample's steps. */
  readonly checkMs: number | null;
  readonly checkSteps: number | null;
  /** The check profile that caught it: the default, else the long one (as checkMutant tries them). */
  readonly checkProfile: 'default' | 'long';
  /** Sweep: ms to the first failing run, and which run it was. */
  readonly sweepMs: number | null;
  readonly sweepRuns: number;
  readonly sweepCatch: string | null;
}

export interface StageRaceOptions {
  /** Seeds per scenario the sweep may try. */
  readonly sweepSeeds: number;
  readonly checkRuns: number;
  readonly mutants?: ReadonlyArray<Mutant>;
}

export async function measureStageRace(options: StageRaceOptions): Promise<ReadonlyArray<StageRace>> {
  const races: StageRace[] = [];
  for (const mutant of (options.mutants ?? MUTANTS).filter((m) => m.wraps !== undefined)) {
    const adapter = inProcessAdapter(`mutant:${mutant.name}`)!;
    // As checkMutant tries them: the default profile, then the long one for a bug that needs many scopes or steps.
    const first = await checkStore({ factory: adapter.store.factory, runs: options.checkRuns, seed: 1 });
    const checkProfile = first.verdict === 'fail' ? 'default' : 'long';
    const check = first.verdict === 'fail' ? first : await checkStore({ factory: adapter.store.factory, seed: 1, profile: 'long' });
    // No workload reaches a check-only mutant's bug: sweeping for it would only spend the budget.
    const sweep = mutant.checkOnly === undefined ? await sweepToFirstFailure(mutant.name, options.sweepSeeds) : { sweepMs: null, sweepRuns: 0, sweepCatch: null };
    races.push({
      name: mutant.name,
      checkMs: check.verdict === 'fail' ? check.firstFailureMs : null,
      checkSteps: check.verdict === 'fail' ? check.steps.length : null,
      checkProfile,
      ...sweep,
    });
  }
  return races;
}

async function sweepToFirstFailure(mutant: string, seeds: number): Promise<Pick<StageRace, 'sweepMs' | 'sweepRuns' | 'sweepCatch'>> {
  const adapter = inProcessAdapter(`mutant:${mutant}`)!;
  const scenarios = listScenarios().filter((s) => s.expect === 'pass');
  const started = performance.now();
  let runs = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    for (const scenario of scenarios) {
      runs++;
      const result = await runScenario({ scenario, seed, store: adapter.store, ...(adapter.policy === undefined ? {} : { policy: adapter.policy }) });
      if (result.valid === false) return { sweepMs: performance.now() - started, sweepRuns: runs, sweepCatch: `${scenario.name} seed ${seed}` };
    }
  }
  return { sweepMs: null, sweepRuns: runs, sweepCatch: null };
}
