// The `--scenario` argument: a built-in name or a path to a scenario file; any problem with it
// is bad input (exit 2) with the loader's one-line message.

import type { InterleaveStrategy } from '../adapters/interleaving.ts';
import { loadScenario, ScenarioError, type Scenario } from '../scenarios/index.ts';
import { generatePlan, replayLine, type Plan } from '../sim/run.ts';
import { UsageError } from './errors.ts';

export function loadScenarioOrFail(nameOrPath: string): Scenario {
  try {
    return loadScenario(nameOrPath);
  } catch (error) {
    if (error instanceof ScenarioError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The seed's plan. The scenario schema refuses settings no plan can be drawn from; should one
 * still get through, it is bad input all the same, not a crash.
 */
export function planOrFail(scenario: Scenario, seed: number): Plan {
  try {
    return generatePlan(scenario, seed);
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(`scenario ${scenario.name}: ${error.message}`);
    throw error;
  }
}

/** The replay line names the scenario as the user gave it, so a scenario file replays too. */
export function replayFor(scenarioArg: string, seed: number, adapter: string, faults: 'sim' | 'real', interleave?: InterleaveStrategy): string {
  return replayLine(scenarioArg, seed, adapter, faults, interleave);
}
