// `testbed sweep`: one scenario (or every scenario that must pass) over a range of seeds. The
// first failure is written to out/failures/ and its replay line printed.
//
// On an in-process store (memory, mutant:<name>) with simulated faults the runs can be spread
// over worker threads (campaign/sweep-pool.ts); the tallies are those of a single-threaded sweep, and
// the first failure (in scenario, seed order) is run again here, where its history is needed
// for the failure file and shrinking; the same seed gives the same trace hash, which is checked.
// On a PostgreSQL store `--workers n` keeps n runs in flight at once in this process, each in a
// schema of its own, taken in order: the tallies and first failure are again those of one at a time.
// A user's store (a module or exec:) is run the same way, each run on a store of its own from the
// factory: n runs at once, as many stores open at once, which must not share state.
//
// A failure is played again before it is shrunk. One that does not come back (a store that only
// says it is deterministic) is flaky: counted apart, named and filed, and the sweep goes on, with
// the next failure tried as its first (cli/record-failure.ts).

import { backendOf, realFaultAdapter } from '../../backends/index.ts';
import { strict as assert } from 'node:assert';
import { inProcessAdapter } from '../../mutants/in-process.ts';
import { listScenarios, type Scenario } from '../../scenarios/index.ts';
import { runScenario, type SimRunResult } from '../../sim/run.ts';
import { coverageOf } from '../../sim/coverage.ts';
import { rerunFailure } from '../../campaign/flaky-failure.ts';
import { failingRun, sweepPoolEach, type FailingSweepRun } from '../../campaign/sweep-pool.ts';
import { isUserStore, resolveAdapter, type ResolvedAdapter } from '../../backends/index.ts';
import { FLAKY_RERUNS_MAX } from '../flaky-output.ts';
import { interleaveStrategy } from '../interleave-arg.ts';
import { checkConnectionBudget, sweepWorkers } from '../sweep-workers.ts';
import { printCoverage, printSummary, type FirstFailure } from '../sweep-output.ts';
import { countFlaky, coverageOfTallies, startTallies, tallyRun, type Tallies } from '../sweep-tallies.ts';
import { during, EXIT, UsageError } from '../errors.ts';
import { printJson } from '../format.ts';
import { startProgress } from '../progress.ts';
import { startRealRun } from '../../campaign/real-faults.ts';
import { recordFailure, recordFlaky, unwrittenLine, type RecordedFailure } from '../record-failure.ts';
import { loadScenarioOrFail, planOrFail, replayFor } from '../scenario-arg.ts';
import { parseSeedRange, seedsOf, shardFrom } from '../seeds.ts';
import type { SweepOptions } from './sweep-flags.ts';

/** Under real faults the stores come from each run's own cluster; this only names the adapter. */
const REAL_POSTGRES: ResolvedAdapter = {
  name: realFaultAdapter(),
  store: { name: realFaultAdapter(), factory: () => Promise.reject(new Error('a real-fault run opens its store through its own cluster')) },
  close: async () => {},
};

export async function sweepCommand(options: SweepOptions): Promise<void> {
  const scenarios: ReadonlyArray<Scenario> =
    options.scenario === 'all' ? listScenarios().filter((s) => s.expect === 'pass') : [loadScenarioOrFail(options.scenario)];
  const shard = shardFrom(options.shard);
  const seeds = seedsOf(parseSeedRange(options.seeds), shard);
  if (seeds.length === 0) throw new UsageError(`shard ${shard?.index}/${shard?.count} of ${options.seeds} holds no seed`);
  if (options.faults === 'real' && backendOf(options.adapter)?.realFaults !== true) throw new UsageError(`--faults real needs --adapter ${realFaultAdapter()} (got ${options.adapter})`);
  // A scenario no plan can be drawn from is bad input before anything starts.
  for (const scenario of scenarios) planOrFail(scenario, seeds[0]!);

  const poolable = options.faults === 'sim' && inProcessAdapter(options.adapter) !== null && options.stopAtFirst !== true;
  if (options.stopAtFirst === true && options.workers !== undefined && options.workers !== 'auto' && options.workers !== '1') {
    throw new UsageError('--stop-at-first runs on one thread: leave out --workers or give --workers 1');
  }
  // The built-in PostgreSQL stores: a server of ours, whose connections the workers share.
  const onPostgres = backendOf(options.adapter)?.databaseClock === true;
  const concurrent = options.faults === 'sim' && (onPostgres || isUserStore(options.adapter)) && options.stopAtFirst !== true;
  const workers = sweepWorkers(options.workers, poolable, scenarios.length * seeds.length, concurrent);
  const strategy = interleaveStrategy(options.interleave, options.faults, options.concurrency);
  if (concurrent && workers > 1 && (onPostgres || strategy !== undefined)) checkConnectionBudget(workers, scenarios, strategy !== undefined);
  const adapter = options.faults === 'real' ? REAL_POSTGRES : await resolveAdapter(options.adapter, strategy === undefined ? {} : { interleave: strategy });
  if (workers > 1 && poolable) {
    try {
      await pooledSweep(options, scenarios, seeds, adapter, workers);
    } finally {
      await adapter.close();
    }
    return;
  }
  await inOrderSweep(options, scenarios, seeds, adapter, workers);
}

/**
 * The sweep on this thread. Runs start up to `workers` ahead (PostgreSQL: each in its own schema)
 * and are taken in order, so the tallies and the first failure are those of one run at a time.
 * Only the runs in flight are held: each is dropped once tallied (its history with it), but for
 * the first failure, whose history its failure file and the shrinker need.
 */
async function inOrderSweep(options: SweepOptions, scenarios: ReadonlyArray<Scenario>, seeds: ReadonlyArray<number>, adapter: ResolvedAdapter, workers: number): Promise<void> {
  const progress = startProgress(scenarios.length * seeds.length, 'sweep', !options.json, 'runs');
  const tallies = startTallies(scenarios);
  let firstFailure: FirstFailure | null = null;
  const started = performance.now();
  const order = runOrder(scenarios.length, seeds, options.stopAtFirst === true);
  // The runs started and not yet taken, oldest first: at most `workers` of them.
  const inFlight: Array<{ readonly index: number; readonly seed: number; readonly run: Promise<SimRunResult> }> = [];
  let ordinal = 0;
  const fill = (): void => {
    while (inFlight.length < workers) {
      const next = order.next();
      if (next.done === true) return;
      const [index, seed] = next.value;
      const run = runOne(options, scenarios[index]!, seed, adapter, ++ordinal);
      run.catch(() => undefined);
      inFlight.push({ index, seed, run });
    }
  };
  try {
    for (fill(); inFlight.length > 0; fill()) {
      const { index, seed, run } = inFlight[0]!;
      const scenario = scenarios[index]!;
      const result = await run;
      inFlight.shift();
      const tally = tallyRun(tallies, index, result, result.untested === undefined ? coverageOf(result.history) : null);
      if (result.valid === false && firstFailure === null && tallies.flakyRuns.length < FLAKY_RERUNS_MAX) {
        const found = Math.round(performance.now() - started);
        const recorded = await recordFailure(result, scenario, adapter, options.faults === 'sim' && options.shrink !== false);
        firstFailure = takeRecorded(tallies, index, result, recorded, found);
      }
      progress.tick(`last ${scenario.name}#${seed}${tally.failures + tally.flaky > 0 ? `, ${tally.failures + tally.flaky} failing` : ''}`);
      if (firstFailure !== null && options.stopAtFirst === true) break;
      // A run on an in-process store settles only promises; let signals and timers in between.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    progress.stop();
    // Runs started ahead still use the server: let them end before it stops.
    await Promise.allSettled(inFlight.map((entry) => entry.run));
    await adapter.close();
  }
  finish(options, adapter.name, tallies, firstFailure, started);
}

/**
 * A failing run's record, taken into the sweep: a flaky one is counted apart and named, and the
 * sweep has no first failure yet (the next failure is tried); any other is the first failure.
 */
function takeRecorded(tallies: Tallies, index: number, result: SimRunResult, recorded: RecordedFailure, afterMs: number): FirstFailure | null {
  if (recorded.flaky === null) return firstFailureOf(result, recorded, afterMs);
  countFlaky(tallies, index, recorded.flaky);
  return null;
}

function firstFailureOf(result: SimRunResult, recorded: RecordedFailure, afterMs: number): FirstFailure {
  return {
    scenario: result.scenario,
    seed: result.seed,
    violations: result.violations,
    replay: result.replay,
    failureFile: recorded.writeError === null ? recorded.file : null,
    failureFileError: recorded.writeError,
    shrunk: recorded.shrunk,
    shrinkStopped: recorded.shrinkStopped,
    counterexample: recorded.counterexample,
    afterMs,
  };
}

/** (scenario index, seed) pairs: scenario by scenario, or seed by seed across scenarios to stop early. */
function* runOrder(scenarioCount: number, seeds: ReadonlyArray<number>, seedMajor: boolean): Generator<readonly [number, number]> {
  if (seedMajor) {
    for (const seed of seeds) for (let i = 0; i < scenarioCount; i++) yield [i, seed];
  } else {
    for (let i = 0; i < scenarioCount; i++) for (const seed of seeds) yield [i, seed];
  }
}

async function runOne(options: SweepOptions, scenario: Scenario, seed: number, adapter: ResolvedAdapter, ordinal: number): Promise<SimRunResult> {
  const scenarioArg = options.scenario === 'all' ? scenario.name : options.scenario;
  const replay = replayFor(scenarioArg, seed, adapter.name, options.faults, adapter.interleave?.strategy);
  // With real faults every run gets its own primary/replica pair: a failover uses one up.
  const real = options.faults === 'real' ? await startRealRun(ordinal) : undefined;
  try {
    return await during(`${scenario.name} seed ${seed} on ${adapter.name}`, () =>
      runScenario({
        scenario,
        seed,
        store: real?.store ?? adapter.store,
        faults: options.faults,
        replay,
        ...(real === undefined ? {} : { realFaults: real.driver }),
        ...(adapter.policy === undefined ? {} : { policy: adapter.policy }),
        ...(adapter.interleave === undefined ? {} : { interleave: adapter.interleave }),
      }),
    );
  } finally {
    await real?.close();
  }
}

/** Prints the summary (or the JSON document) and sets the exit code. */
function finish(options: SweepOptions, adapterName: string, tallies: Tallies, firstFailure: FirstFailure | null, started: number): void {
  const seconds = (performance.now() - started) / 1000;
  // A scenario no run reached (a sweep stopped at its first failure) has no line.
  const perScenario = tallies.perScenario.filter((t) => t.runs > 0);
  const total = (count: (t: (typeof perScenario)[number]) => number) => perScenario.reduce((sum, t) => sum + count(t), 0);
  const [runs, failures, flaky, undecided, untested] = [total((t) => t.runs), total((t) => t.failures), total((t) => t.flaky), total((t) => t.undecided), total((t) => t.untested)];
  // Runs that were played: an untested run is not played, and counting it would flatter the rate.
  const seedsPerSecond = Math.round(((runs - untested) / Math.max(seconds, 1e-9)) * 10) / 10;
  const unjudged: Record<string, number> = {};
  for (const t of perScenario) for (const [invariant, n] of Object.entries(t.unjudged)) unjudged[invariant] = (unjudged[invariant] ?? 0) + n;
  const stoppedAtFirst = options.stopAtFirst === true && firstFailure !== null;
  const { undecidedRuns, flakyRuns } = tallies;
  const summary = { scenario: options.scenario, adapter: adapterName, runs, failures, flaky, flakyRuns, firstFailure, seedsPerSecond, undecided, undecidedRuns, untested, unjudged, stoppedAtFirst, scenarios: perScenario };
  const coverage = coverageOfTallies(tallies);
  if (options.json) printJson({ ...summary, firstFailure: firstFailure === null ? null : { ...firstFailure, counterexample: undefined }, coverage });
  else {
    printSummary(summary, seconds);
    printCoverage(coverage);
  }
  if (firstFailure !== null && firstFailure.failureFileError !== null) process.stderr.write(`${unwrittenLine(firstFailure.failureFileError)}\n`);
  // A flaky failure is a failure found: its first run did break a rule.
  process.exitCode = failures + flaky > 0 ? EXIT.violation : undecided > 0 ? EXIT.undecided : EXIT.ok;
}

/**
 * The sweep on worker threads; the same tallies, first failure and output as the loop above. Runs
 * are tallied as they come back in order, and dropped: only the first failing ones are kept (as
 * many as may turn out flaky), to be run again here once the pool is done.
 */
async function pooledSweep(
  options: SweepOptions,
  scenarios: ReadonlyArray<Scenario>,
  seeds: ReadonlyArray<number>,
  adapter: ResolvedAdapter,
  workers: number,
): Promise<void> {
  const progress = startProgress(scenarios.length * seeds.length, 'sweep', !options.json, 'runs');
  const started = performance.now();
  const tallies = startTallies(scenarios);
  let failing = 0;
  const failingRuns: Array<{ readonly index: number; readonly run: FailingSweepRun }> = [];
  try {
    await sweepPoolEach(
      {
        scenarios,
        seeds,
        adapter: options.adapter,
        workers,
        traceHashes: 'failing runs',
        onRuns: (batch) => {
          failing += batch.filter((run) => run.valid === false).length;
          const last = batch[batch.length - 1];
          progress.tick(last === undefined ? '' : `last ${last.scenario}#${last.seed}${failing > 0 ? `, ${failing} failing` : ''}`, batch.length);
        },
      },
      (run, i) => {
        const index = Math.floor(i / seeds.length);
        tallyRun(tallies, index, run, run.untested === undefined ? run.coverage : null);
        if (run.valid === false && failingRuns.length < FLAKY_RERUNS_MAX) failingRuns.push({ index, run: failingRun(run) });
      },
    );
  } finally {
    progress.stop();
  }
  const firstFailure = await firstOfPooled(options, scenarios, tallies, failingRuns, adapter, started);
  finish(options, adapter.name, tallies, firstFailure, started);
}

/**
 * Runs the pooled sweep's failing runs again here, in order, for the history the failure file and
 * the shrinker need, until one fails again: that one is the first failure. One that does not is
 * flaky. The built-in stores always fail again, with the same trace hash, which is checked.
 */
async function firstOfPooled(
  options: SweepOptions,
  scenarios: ReadonlyArray<Scenario>,
  tallies: Tallies,
  failingRuns: ReadonlyArray<{ readonly index: number; readonly run: FailingSweepRun }>,
  adapter: ResolvedAdapter,
  started: number,
): Promise<FirstFailure | null> {
  for (const { index, run } of failingRuns) {
    const scenario = scenarios[index]!;
    const replay = replayFor(options.scenario === 'all' ? scenario.name : options.scenario, run.seed, adapter.name, 'sim');
    const rerun = await rerunFailure(run, () => runScenario({ scenario, seed: run.seed, store: adapter.store, replay, ...(adapter.policy === undefined ? {} : { policy: adapter.policy }) }));
    if (rerun.kind === 'flaky') {
      const { flaky } = await recordFlaky({ ...run, adapter: adapter.name, faults: 'sim', replay }, rerun.rerun, rerun.invariant, adapter);
      countFlaky(tallies, index, flaky);
      continue;
    }
    assert.equal(rerun.result.traceHash, run.traceHash, `${scenario.name} seed ${run.seed} gave another trace hash on this thread than on its worker`);
    const afterMs = Math.round(performance.now() - started);
    const recorded = await recordFailure(rerun.result, scenario, adapter, options.shrink !== false);
    const first = takeRecorded(tallies, index, rerun.result, recorded, afterMs);
    if (first !== null) return first;
  }
  return null;
}
