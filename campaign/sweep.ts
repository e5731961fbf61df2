// A sweep as a library call: one scenario over a list of seeds against any store, one run after
// another, with the tallies and the first failure that `testbed sweep` reports. (The command
// spreads memory and mutant sweeps over worker threads; a caller's own store runs here, in order.)

import type { ControllerPolicy } from '../model/controller-policy.ts';
import type { Scenario } from '../scenarios/schema.ts';
import { runScenario, type SimRunResult, type StoreChoice } from '../sim/run.ts';

export interface SweepScenarioOptions {
  readonly scenario: Scenario;
  /** The seeds, run in this order. */
  readonly seeds: Iterable<number>;
  readonly store: StoreChoice;
  readonly policy?: Partial<ControllerPolicy>;
  /** Stop at the first failing seed instead of running every seed (default false). */
  readonly stopAtFirstFailure?: boolean;
  /** Called after each run. */
  readonly onRun?: (result: SimRunResult) => void;
}

export interface SweepResult {
  readonly scenario: string;
  readonly adapter: string;
  readonly runs: number;
  /** Runs that showed a violation. */
  readonly failures: number;
  /** Runs that a checker could not decide. */
  readonly undecided: number;
  /** The first run that showed a violation, with its plan and history (shrink it with `shrinkPlan`). */
  readonly firstFailure: SimRunResult | null;
}

/** Seeds `from` to `to`, both included. */
export function seedRange(from: number, to: number): number[] {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from > to) throw new RangeError(`bad seed range ${from}..${to}`);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

export async function sweepScenario(options: SweepScenarioOptions): Promise<SweepResult> {
  let runs = 0;
  let failures = 0;
  let undecided = 0;
  let firstFailure: SimRunResult | null = null;
  for (const seed of options.seeds) {
    const result = await runScenario({
      scenario: options.scenario,
      seed,
      store: options.store,
      ...(options.policy === undefined ? {} : { policy: options.policy }),
    });
    runs++;
    options.onRun?.(result);
    if (result.valid === false) {
      failures++;
      firstFailure ??= result;
      if (options.stopAtFirstFailure === true) break;
    } else if (result.valid === 'unknown') {
      undecided++;
    }
  }
  return { scenario: options.scenario.name, adapter: options.store.name, runs, failures, undecided, firstFailure };
}
