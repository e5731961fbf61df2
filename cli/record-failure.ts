// A failing run becomes a failure file under out/failures/. On a deterministic store (the memory
// store, a mutant, a user's store that declares `capabilities.deterministic`) its plan is first shrunk, so the file and the printed counterexample hold
// the smallest plan that still shows the same invariant violated. A file that cannot be written
// (a read-only directory, a full disk) does not hide the violation: the run still reports it, with
// its replay line, and says why there is no file.
//
// Shrinking re-runs the plan, and a store that only says it is deterministic may not fail again
// (campaign/flaky-failure.ts). The plan is therefore played once more before it is shrunk: a
// failure that does not come back is flaky, filed with both runs and reported, not shrunk; one
// that comes back and then slips away while shrinking is filed as it first ran.

import { backendOf } from '../backends/index.ts';
import type { InterleaveStrategy } from '../adapters/interleaving.ts';
import { policyFlips, type ControllerPolicy } from '../model/controller-policy.ts';
import { presentFields } from '../campaign/present-fields.ts';
import type { Scenario } from '../scenarios/index.ts';
import { failureOf, writeFailureFile, type FailedRun, type FailureFile } from '../campaign/failure-file.ts';
import { rerunFailure } from '../campaign/flaky-failure.ts';
import { runScenario, type SimRunResult } from '../sim/run.ts';
import type { RunResult } from '../sim/run-result.ts';
import { renderCounterexample } from '../campaign/counterexample.ts';
import { NotReproducedError, shrinkPlan } from '../campaign/shrink.ts';
import type { ResolvedAdapter } from '../backends/index.ts';
import { rerunSummaryOf, type FlakyRun } from './flaky-output.ts';
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
  /** Set when the failure did not come back when its plan was played again (then not shrunk). */
  readonly flaky: FlakyRun | null;
  /** Why a failure that came back was not shrunk after all: a smaller plan's failure did not come back. */
  readonly shrinkStopped: string | null;
  /** The run of the shrunk plan (its history is the counterexample), when the plan was shrunk. */
  readonly shrunkRun: RunResult | null;
  /** Why the plan was not shrunk, in a phrase, when it was not. */
  readonly whyNotShrunk: string | null;
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
  const file = failurePath(result.scenario, result.seed, fileAdapter(adapter));
  const extra = extraOf(result, adapter);
  const interleave = adapter.interleave?.strategy;
  // An interleaved run replays exactly when its store answers alike (the built-in PostgreSQL
  // stores, a module that declares it), so its plan shrinks as an in-process store's does, each
  // smaller plan interleaved from the same seed, on a smaller budget (each run is a real one).
  // A free-running run does not replay exactly, so it is never shrunk.
  const replays = interleave !== 'free' && (adapter.deterministic === true || (interleave !== undefined && backendOf(adapter.name)?.replays === 'interleaved'));
  if (!shrink) return recordAsRan(file, result, extra, null, 'shrinking was turned off (--no-shrink)');
  if (!replays) return recordAsRan(file, result, extra, null, notReplayed(adapter));
  const execute = (plan: SimRunResult['plan']) =>
    runScenario({ scenario, seed: result.seed, plan, store: adapter.store, replay: result.replay, ...(extra.policy === undefined ? {} : { policy: extra.policy }), ...(adapter.interleave === undefined ? {} : { interleave: adapter.interleave }) });
  const rerun = await rerunFailure(result, () => execute(result.plan));
  if (rerun.kind === 'flaky') return recordFlaky(result, rerun.rerun, rerun.invariant, adapter);
  const invariant = result.violations[0]!.invariant;
  let shrunk;
  try {
    shrunk = await shrinkPlan(result.plan, execute, invariant, { maxRuns: interleave === undefined ? 300 : INTERLEAVED_SHRINK_RUNS });
  } catch (error) {
    if (!(error instanceof NotReproducedError)) throw error;
    const stopped = `${result.scenario} seed ${result.seed} violated ${invariant} again when re-run, but not shrunk: the ${error.plan} plan did not show it on a later run; the failure file holds the plan as it first ran`;
    return recordAsRan(file, result, extra, stopped, `a smaller plan did not show the violation again when run (the ${error.plan} plan)`);
  }
  const writeError = await saveFailureFile(file, failureOf(shrunk.plan, shrunk.result, extra));
  const counterexample = renderCounterexample(shrunk.result, { invariant, originalSteps: shrunk.originalSteps, replays: writeError === null ? [replayCommandLine(file, adapter.name)] : [] });
  return { file, writeError, shrunk: true, counterexample, flaky: null, shrinkStopped: null, shrunkRun: shrunk.result, whyNotShrunk: null };
}

/**
 * Files a flaky failure: the first run (`first`, whose history a worker thread does not send back)
 * and the re-run of the same plan that did not show `invariant`, which also gives the plan.
 */
export async function recordFlaky(first: FailedRun, rerun: SimRunResult, invariant: string, adapter: ResolvedAdapter): Promise<RecordedFailure & { readonly flaky: FlakyRun }> {
  const file = failurePath(first.scenario, first.seed, fileAdapter(adapter));
  const writeError = await saveFailureFile(file, failureOf(rerun.plan, first, { ...extraOf(rerun, adapter), rerun }));
  const flaky: FlakyRun = {
    scenario: first.scenario,
    seed: first.seed,
    invariant,
    violations: first.violations.map((v) => ({ invariant: v.invariant, message: v.message })),
    rerun: rerunSummaryOf(rerun),
    replay: first.replay,
    failureFile: writeError === null ? file : null,
    failureFileError: writeError,
  };
  return { file, writeError, shrunk: false, counterexample: null, flaky, shrinkStopped: null, shrunkRun: null, whyNotShrunk: 'the failure did not come back when its plan was played again (flaky)' };
}

async function recordAsRan(file: string, result: SimRunResult, extra: ReturnType<typeof extraOf>, shrinkStopped: string | null, whyNotShrunk: string): Promise<RecordedFailure> {
  const writeError = await saveFailureFile(file, failureOf(result.plan, result, extra));
  return { file, writeError, shrunk: false, counterexample: null, flaky: null, shrinkStopped, shrunkRun: null, whyNotShrunk };
}

/** Why a store's failures are not shrunk: its runs may not replay exactly. */
function notReplayed(adapter: ResolvedAdapter): string {
  return adapter.interleave?.strategy === 'free'
    ? 'a free-running concurrent run does not replay exactly'
    : `the store ${adapter.name} does not say it answers alike on every run (capabilities.deterministic)`;
}

/** The adapter as a failure file's name says it, with its concurrency. */
function fileAdapter(adapter: ResolvedAdapter): string {
  const concurrency = adapter.interleave === undefined ? '' : adapter.interleave.strategy === 'free' ? '-free' : `-interleave-${adapter.interleave.strategy}`;
  return `${adapter.name}${concurrency}`;
}

/** Every flag the run flipped, the scenario's and the adapter's, and its interleaving, so that the file replays alone. */
function extraOf(result: SimRunResult, adapter: ResolvedAdapter): { readonly policy?: Partial<ControllerPolicy>; readonly interleave?: InterleaveStrategy } {
  const flips = policyFlips(result.policy);
  return presentFields({ policy: Object.keys(flips).length === 0 ? undefined : flips, interleave: adapter.interleave?.strategy });
}
