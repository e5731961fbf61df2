// A failing run becomes a failure file under out/failures/. On an in-process store (the memory
// store or a mutant) its plan is first shrunk, so the file and the printed counterexample hold
// the smallest plan that still shows the same invariant violated.

import type { Scenario } from '../scenarios/index.ts';
import { failureOf, writeFailureFile } from '../sim/failure-file.ts';
import { runScenario, type SimRunResult } from '../sim/run.ts';
import { renderCounterexample, shrinkPlan } from '../sim/shrink.ts';
import type { ResolvedAdapter } from './adapters.ts';

export interface RecordedFailure {
  readonly file: string;
  readonly shrunk: boolean;
  /** The numbered counterexample, when the plan was shrunk. */
  readonly counterexample: string | null;
}

export function failurePath(scenario: string, seed: number, adapter: string): string {
  return `out/failures/${scenario}-${seed}-${adapter.replace(/[^a-z0-9-]+/gi, '_')}.json`;
}

export async function recordFailure(result: SimRunResult, scenario: Scenario, adapter: ResolvedAdapter, shrink: boolean): Promise<RecordedFailure> {
  const file = failurePath(result.scenario, result.seed, adapter.name);
  const policy = adapter.policy === undefined ? {} : { policy: adapter.policy };
  const shrinkable = shrink && (adapter.name === 'memory' || adapter.name.startsWith('mutant:'));
  if (!shrinkable) {
    await writeFailureFile(file, failureOf(result.plan, result, policy));
    return { file, shrunk: false, counterexample: null };
  }
  const invariant = result.violations[0]!.invariant;
  const execute = (plan: SimRunResult['plan']) => runScenario({ scenario, seed: result.seed, plan, store: adapter.store, replay: result.replay, ...policy });
  const shrunk = await shrinkPlan(result.plan, execute, invariant, { maxRuns: 300 });
  await writeFailureFile(file, failureOf(shrunk.plan, shrunk.result, policy));
  const counterexample = renderCounterexample(shrunk.result, { invariant, originalSteps: shrunk.originalSteps, replays: [`npx testbed replay ${file}`] });
  return { file, shrunk: true, counterexample };
}
