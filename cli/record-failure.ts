// A failing run becomes a failure file under out/failures/. On a deterministic store (the memory
// store, a mutant, a user's store that declares `capabilities.deterministic`) its plan is first shrunk, so the file and the printed counterexample hold
// the smallest plan that still shows the same invariant violated. A file that cannot be written
// (a read-only directory, a full disk) does not hide the violation: the run still reports it, with
// its replay line, and says why there is no file.

import { policyFlips } from '../model/controller-policy.ts';
import type { Scenario } from '../scenarios/index.ts';
import { failureOf, writeFailureFile, type FailureFile } from '../campaign/failure-file.ts';
import { runScenario, type SimRunResult } from '../sim/run.ts';
import { renderCounterexample } from '../campaign/counterexample.ts';
import { shrinkPlan } from '../campaign/shrink.ts';
import type { ResolvedAdapter } from './adapters.ts';
import { replayCommandLine } from './replay-trust.ts';
import { firstLine } from './errors.ts';

export interface RecordedFailure {
  /** Where the failure file was meant to go. */
  readonly file: string;
  /** Why it could not be written there; null when it was written. */
  readonly writeError: string | null;
  readonly shrunk: boolean;
  /** The numbered counterexample, when the plan was shrunk. */
  readonly counterexample: string | null;
}

export function failurePath(scenario: string, seed: number, adapter: string): string {
  return `out/failures/${scenario}-${seed}-${adapter.replace(/[^a-z0-9-]+/gi, '_')}.json`;
}

const written: string[] = [];

/** Failure files this process has written, oldest first (an interrupted command names them). */
export function writtenFailureFiles(): ReadonlyArray<string> {
  return written;
}

/** Writes a failure file; returns null, or the one-line reason it could not be written. */
export async function saveFailureFile(file: string, failure: FailureFile): Promise<string | null> {
  try {
    await writeFailureFile(file, failure);
  } catch (error) {
    return `cannot write the failure file ${file}: ${firstLine(error)}`;
  }
  written.push(file);
  return null;
}

/** The line (for stderr) that says why a failure went to no file, and that the violation stands. */
export function unwrittenLine(writeError: string): string {
  return `testbed: ${writeError}; the violation stands: replay it with its replay line`;
}

/** Smaller plans tried when shrinking an interleaved failure: each is a real interleaved run. */
const INTERLEAVED_SHRINK_RUNS = 60;

export async function recordFailure(result: SimRunResult, scenario: Scenario, adapter: ResolvedAdapter, shrink: boolean): Promise<RecordedFailure> {
  const concurrency = adapter.interleave === undefined ? '' : adapter.interleave.strategy === 'free' ? '-free' : `-interleave-${adapter.interleave.strategy}`;
  const file = failurePath(result.scenario, result.seed, `${adapter.name}${concurrency}`);
  // Every flag the run flipped, the scenario's and the adapter's, so that the file replays alone.
  const flips = policyFlips(result.policy);
  const policy = Object.keys(flips).length === 0 ? {} : { policy: flips };
  const interleave = adapter.interleave?.strategy;
  const extra = interleave === undefined ? policy : { ...policy, interleave };
  // An interleaved run replays exactly when its store answers alike (the built-in PostgreSQL
  // stores, a module that declares it), so its plan shrinks as an in-process store's does, each
  // smaller plan interleaved from the same seed, on a smaller budget (each run is a real one).
  // A free-running run does not replay exactly, so it is never shrunk.
  const replays = interleave !== 'free' && (adapter.deterministic === true || (interleave !== undefined && (adapter.name === 'postgres' || adapter.name.startsWith('postgres-mutant:'))));
  if (!shrink || !replays) {
    const writeError = await saveFailureFile(file, failureOf(result.plan, result, extra));
    return { file, writeError, shrunk: false, counterexample: null };
  }
  const invariant = result.violations[0]!.invariant;
  const execute = (plan: SimRunResult['plan']) =>
    runScenario({ scenario, seed: result.seed, plan, store: adapter.store, replay: result.replay, ...policy, ...(adapter.interleave === undefined ? {} : { interleave: adapter.interleave }) });
  const shrunk = await shrinkPlan(result.plan, execute, invariant, { maxRuns: interleave === undefined ? 300 : INTERLEAVED_SHRINK_RUNS });
  const writeError = await saveFailureFile(file, failureOf(shrunk.plan, shrunk.result, extra));
  const counterexample = renderCounterexample(shrunk.result, { invariant, originalSteps: shrunk.originalSteps, replays: writeError === null ? [replayCommandLine(file, adapter.name)] : [] });
  return { file, writeError, shrunk: true, counterexample };
}
