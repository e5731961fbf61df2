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

import { strict as assert } from 'node:assert';
import { inProcessAdapter } from '../../adapters/in-process.ts';
import { listScenarios, type Scenario } from '../../scenarios/index.ts';
import { runScenario, type SimRunResult } from '../../sim/run.ts';
import { coverageOf, summarizeCoverage, type CoverageSummary } from '../../sim/coverage.ts';
import { sweepPool } from '../../campaign/sweep-pool.ts';
import { isUserStore, resolveAdapter, type ResolvedAdapter } from '../adapters.ts';
import { interleaveStrategy } from '../interleave-arg.ts';
import { checkConnectionBudget, sweepWorkers } from '../sweep-workers.ts';
import { addCoverage, printCoverage, printSummary, type FirstFailure, type Tally } from '../sweep-output.ts';
import { during, EXIT, UsageError } from '../errors.ts';
import { printJson } from '../format.ts';
import { startProgress } from '../progress.ts';
import { startRealRun } from '../real-faults.ts';
import { recordFailure, unwrittenLine, type RecordedFailure } from '../record-failure.ts';
import { loadScenarioOrFail, planOrFail, replayFor } from '../scenario-arg.ts';
import { parseSeedRange, seedsOf, shardFrom } from '../seeds.ts';

export interface SweepOptions {
  readonly scenario: string;
  readonly seeds: string;
  readonly adapter: string;
  readonly faults: 'sim' | 'real';
  readonly shard?: string;
  /** Worker threads: a positive integer or 'auto' (the default). */
  readonly workers?: string;
  /** Stop at the first failing run, visiting seed 1 of every scenario, then seed 2, and so on. */
  readonly stopAtFirst?: boolean;
  /** False with `--no-shrink`: the first failure's file holds the plan as it ran. */
  readonly shrink?: boolean;
  readonly json?: boolean;
  /** `--interleave [strategy]`: controlled interleaving on a PostgreSQL store. */
  readonly interleave?: string | boolean;
  /** `--concurrency free`: the calls that meet at the database run at once, unheld. */
  readonly concurrency?: string;
}

/** Under real faults the stores come from each run's own cluster; this only names the adapter. */
const REAL_POSTGRES: ResolvedAdapter = {
  name: 'postgres',
  store: { name: 'postgres', factory: () => Promise.reject(new Error('a real-fault run opens its store through its own cluster')) },
  close: async () => {},
};

export async function sweepCommand(options: SweepOptions): Promise<void> {
  const scenarios: ReadonlyArray<Scenario> =
    options.scenario === 'all' ? listScenarios().filter((s) => s.expect === 'pass') : [loadScenarioOrFail(options.scenario)];
  const shard = shardFrom(options.shard);
  const seeds = seedsOf(parseSeedRange(options.seeds), shard);
  if (seeds.length === 0) throw new UsageError(`shard ${shard?.index}/${shard?.count} of ${options.seeds} holds no seed`);
  if (options.faults === 'real' && options.adapter !== 'postgres') throw new UsageError(`--faults real needs --adapter postgres (got ${options.adapter})`);
  // A scenario no plan can be drawn from is bad input before anything starts.
  for (const scenario of scenarios) planOrFail(scenario, seeds[0]!);

  const poolable = options.faults === 'sim' && inProcessAdapter(options.adapter) !== null && options.stopAtFirst !== true;
  if (options.stopAtFirst === true && options.workers !== undefined && options.workers !== 'auto' && options.workers !== '1') {
    throw new UsageError('--stop-at-first runs on one thread: leave out --workers or give --workers 1');
  }
  const onPostgres = options.adapter === 'postgres' || options.adapter.startsWith('postgres-mutant:');
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
 */
async function inOrderSweep(options: SweepOptions, scenarios: ReadonlyArray<Scenario>, seeds: ReadonlyArray<number>, adapter: ResolvedAdapter, workers: number): Promise<void> {
  const progress = startProgress(scenarios.length * seeds.length, 'sweep', !options.json);
  const perScenario: Tally[] = scenarios.map((scenario) => ({ scenario: scenario.name, runs: 0, failures: 0, undecided: 0, untested: 0, unjudged: {} }));
  // What each scenario's runs reached together (kept per scenario, not per run: sweeps can be long).
  const reached = new Map<string, { commands: Set<string>; outcomes: Set<string> }>();
  let firstFailure: FirstFailure | null = null;
  const started = performance.now();
  const order = [...runOrder(scenarios.length, seeds, options.stopAtFirst === true)];
  const inFlight: Array<Promise<SimRunResult>> = [];
  const startUpTo = (last: number): void => {
    while (inFlight.length <= Math.min(last, order.length - 1)) {
      const [index, seed] = order[inFlight.length]!;
      const run = runOne(options, scenarios[index]!, seed, adapter, inFlight.length + 1);
      run.catch(() => undefined);
      inFlight.push(run);
    }
  };
  try {
    for (const [position, [index, seed]] of order.entries()) {
      const scenario = scenarios[index]!;
      const tally = perScenario[index]!;
      startUpTo(position + workers - 1);
      const result = await inFlight[position]!;
      tally.runs++;
      if (result.untested === undefined) addCoverage(reached, scenario.name, coverageOf(result.history));
      countUnknown(tally, result);
      if (result.valid === false) {
        tally.failures++;
        if (firstFailure === null) {
          const found = Math.round(performance.now() - started);
          const recorded = await recordFailure(result, scenario, adapter, options.faults === 'sim' && options.shrink !== false);
          firstFailure = firstFailureOf(result, recorded, found);
        }
      }
      progress.tick(`${scenario.name}#${seed}${tally.failures > 0 ? ` ${tally.failures} failing` : ''}`);
      if (firstFailure !== null && options.stopAtFirst === true) break;
      // A run on an in-process store settles only promises; let signals and timers in between.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    progress.stop();
    // Runs started ahead still use the server: let them end before it stops.
    await Promise.allSettled(inFlight);
    await adapter.close();
  }
  finish(options, adapter.name, perScenario.filter((t) => t.runs > 0), firstFailure, started, summarizeCoverage([...reached].map(([name, c]) => ({ scenario: name, coverage: { commands: [...c.commands], outcomes: [...c.outcomes] } }))));
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

/** An undecided run, or one the store could not be judged on (untested, not undecided). */
function countUnknown(tally: Tally, run: { readonly valid: true | false | 'unknown'; readonly untested?: string; readonly unjudged?: ReadonlyArray<{ readonly invariant: string }> }): void {
  for (const { invariant } of run.unjudged ?? []) tally.unjudged[invariant] = (tally.unjudged[invariant] ?? 0) + 1;
  if (run.valid === false) return;
  if (run.untested !== undefined) {
    tally.untested++;
    tally.lacks ??= run.untested;
  } else if (run.valid === 'unknown') {
    tally.undecided++;
  }
}

/** Prints the summary (or the JSON document) and sets the exit code. */
function finish(
  options: SweepOptions,
  adapterName: string,
  perScenario: ReadonlyArray<Tally>,
  firstFailure: FirstFailure | null,
  started: number,
  coverage: CoverageSummary,
): void {
  const seconds = (performance.now() - started) / 1000;
  const runs = perScenario.reduce((sum, t) => sum + t.runs, 0);
  const failures = perScenario.reduce((sum, t) => sum + t.failures, 0);
  const undecided = perScenario.reduce((sum, t) => sum + t.undecided, 0);
  const untested = perScenario.reduce((sum, t) => sum + t.untested, 0);
  // Runs that were played: an untested run is not played, and counting it would flatter the rate.
  const seedsPerSecond = Math.round(((runs - untested) / Math.max(seconds, 1e-9)) * 10) / 10;
  const unjudged: Record<string, number> = {};
  for (const t of perScenario) for (const [invariant, n] of Object.entries(t.unjudged)) unjudged[invariant] = (unjudged[invariant] ?? 0) + n;
  const stoppedAtFirst = options.stopAtFirst === true && firstFailure !== null;
  const summary = { scenario: options.scenario, adapter: adapterName, runs, failures, firstFailure, seedsPerSecond, undecided, untested, unjudged, stoppedAtFirst, scenarios: perScenario };
  if (options.json) printJson({ ...summary, firstFailure: firstFailure === null ? null : { ...firstFailure, counterexample: undefined }, coverage });
  else {
    printSummary(summary, seconds);
    printCoverage(coverage);
  }
  if (firstFailure !== null && firstFailure.failureFileError !== null) process.stderr.write(`${unwrittenLine(firstFailure.failureFileError)}\n`);
  process.exitCode = failures > 0 ? EXIT.violation : undecided > 0 ? EXIT.undecided : EXIT.ok;
}

/** The sweep on worker threads; the same tallies, first failure and output as the loop above. */
async function pooledSweep(
  options: SweepOptions,
  scenarios: ReadonlyArray<Scenario>,
  seeds: ReadonlyArray<number>,
  adapter: ResolvedAdapter,
  workers: number,
): Promise<void> {
  const progress = startProgress(scenarios.length * seeds.length, 'sweep', !options.json);
  const started = performance.now();
  let failing = 0;
  let runs;
  try {
    runs = await sweepPool({
      scenarios,
      seeds,
      adapter: options.adapter,
      workers,
      onRuns: (batch) => {
        failing += batch.filter((run) => run.valid === false).length;
        const last = batch[batch.length - 1];
        progress.tick(last === undefined ? '' : `${last.scenario}#${last.seed}${failing > 0 ? ` ${failing} failing` : ''}`, batch.length);
      },
    });
  } finally {
    progress.stop();
  }
  const perScenario: Tally[] = scenarios.map((scenario) => ({ scenario: scenario.name, runs: 0, failures: 0, undecided: 0, untested: 0, unjudged: {} }));
  let firstFailure: FirstFailure | null = null;
  for (const [i, run] of runs.entries()) {
    const scenarioIndex = Math.floor(i / seeds.length);
    const tally = perScenario[scenarioIndex]!;
    tally.runs++;
    countUnknown(tally, run);
    if (run.valid !== false) continue;
    tally.failures++;
    if (firstFailure !== null) continue;
    // Run it again here, for the history the failure file and the shrinker need.
    const scenario = scenarios[scenarioIndex]!;
    const replay = replayFor(options.scenario === 'all' ? scenario.name : options.scenario, run.seed, adapter.name, 'sim');
    const result = await runScenario({ scenario, seed: run.seed, store: adapter.store, replay, ...(adapter.policy === undefined ? {} : { policy: adapter.policy }) });
    assert.equal(result.traceHash, run.traceHash, `${scenario.name} seed ${run.seed} gave another trace hash on this thread than on its worker`);
    const afterMs = Math.round(performance.now() - started);
    const recorded = await recordFailure(result, scenario, adapter, options.shrink !== false);
    firstFailure = firstFailureOf(result, recorded, afterMs);
  }
  finish(options, adapter.name, perScenario, firstFailure, started, summarizeCoverage(runs.filter((run) => run.untested === undefined)));
}

