// `testbed sweep`: one scenario (or every scenario that must pass) over a range of seeds. The
// first failure is written to out/failures/ and its replay line printed.
//
// On an in-process store (memory, mutant:<name>) with simulated faults the runs can be spread
// over worker threads (sim/sweep-pool.ts); the tallies are those of a single-threaded sweep, and
// the first failure (in scenario, seed order) is run again here, where its history is needed
// for the failure file and shrinking; the same seed gives the same trace hash, which is checked.
// On a PostgreSQL store `--workers n` keeps n runs in flight at once in this process, each in a
// schema of its own, taken in order: the tallies and first failure are again those of one at a time.

import { strict as assert } from 'node:assert';
import pc from 'picocolors';
import { inProcessAdapter } from '../../adapters/in-process.ts';
import { listScenarios, type Scenario } from '../../scenarios/index.ts';
import { runScenario, type SimRunResult } from '../../sim/run.ts';
import { coverageOf, summarizeCoverage, type CoverageSummary, type RunCoverage } from '../../sim/coverage.ts';
import { autoWorkers, sweepPool } from '../../sim/sweep-pool.ts';
import { resolveAdapter, type ResolvedAdapter } from '../adapters.ts';
import { interleaveStrategy } from '../interleave-arg.ts';
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

const MAX_WORKERS = 64;

/** How many worker threads the sweep uses: 1 runs everything on this thread. */
/**
 * Worker threads for an in-process store (`poolable`); for a PostgreSQL store (`concurrent`),
 * runs in flight at once in this process, each in a schema of its own, so that the server and
 * the simulator use a core each.
 */
export function sweepWorkers(spec: string | undefined, poolable: boolean, runs: number, concurrent = false): number {
  const value = spec ?? 'auto';
  if (value === 'auto') return poolable ? autoWorkers(runs) : 1;
  if (!/^[1-9][0-9]*$/.test(value) || Number(value) > MAX_WORKERS) throw new UsageError(`--workers must be 'auto' or an integer from 1 to ${MAX_WORKERS}, got '${value}'`);
  const workers = Number(value);
  if (workers > 1 && !poolable && !concurrent) throw new UsageError('--workers above 1 needs an in-process adapter (memory or mutant:<name>) or a PostgreSQL one (postgres, postgres-mutant:<name>), and --faults sim');
  return workers;
}

/** Connections the runs in flight may hold on the server together (a default server allows 100). */
const CONNECTION_BUDGET = 90;

/**
 * `--workers n` on PostgreSQL keeps n runs open at once. A lockstep run holds a pool of up to four
 * connections; an interleaved one a connection per simulated process, two for its main store and
 * one for the lock checks. More than the server allows is refused up front.
 */
function checkConnectionBudget(workers: number, scenarios: ReadonlyArray<Scenario>, options: SweepOptions): void {
  const interleaved = (options.interleave !== undefined && options.interleave !== false) || options.concurrency === 'free';
  const perRun = interleaved ? Math.max(...scenarios.map((s) => s.workload.controllers)) + 2 + 3 : 4;
  const most = Math.max(1, Math.floor(CONNECTION_BUDGET / perRun));
  if (workers > most) throw new UsageError(`--workers ${workers}: these runs hold up to ${perRun} connections each, so at most ${most} fit in the server's ${CONNECTION_BUDGET} connections`);
}

/** Under real faults the stores come from each run's own cluster; this only names the adapter. */
const REAL_POSTGRES: ResolvedAdapter = {
  name: 'postgres',
  store: { name: 'postgres', factory: () => Promise.reject(new Error('a real-fault run opens its store through its own cluster')) },
  close: async () => {},
};

export interface FirstFailure {
  readonly scenario: string;
  readonly seed: number;
  readonly violations: SimRunResult['violations'];
  readonly replay: string;
  /** Null when the file could not be written (`failureFileError` says why). */
  readonly failureFile: string | null;
  readonly failureFileError: string | null;
  /** Whether the failure file holds a shrunk plan (deterministic stores: built-in ones, and user stores that declare it). */
  readonly shrunk: boolean;
  /** The shrunk counterexample, printed, not part of the JSON. */
  readonly counterexample: string | null;
  /** Milliseconds from the start of the sweep to the failing run's end (before shrinking). */
  readonly afterMs: number;
}

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
  const concurrent = options.faults === 'sim' && (options.adapter === 'postgres' || options.adapter.startsWith('postgres-mutant:')) && options.stopAtFirst !== true;
  const workers = sweepWorkers(options.workers, poolable, scenarios.length * seeds.length, concurrent);
  if (concurrent && workers > 1) checkConnectionBudget(workers, scenarios, options);
  const strategy = interleaveStrategy(options.interleave, options.faults, options.concurrency);
  const adapter = options.faults === 'real' ? REAL_POSTGRES : await resolveAdapter(options.adapter, strategy === undefined ? {} : { interleave: strategy });
  if (workers > 1 && poolable) {
    try {
      await pooledSweep(options, scenarios, seeds, adapter, workers);
    } finally {
      await adapter.close();
    }
    return;
  }
  const progress = startProgress(scenarios.length * seeds.length, 'sweep', !options.json);
  const perScenario: Tally[] = scenarios.map((scenario) => ({ scenario: scenario.name, runs: 0, failures: 0, undecided: 0, untested: 0, unjudged: {} }));
  // What each scenario's runs reached together (kept per scenario, not per run: sweeps can be long).
  const reached = new Map<string, { commands: Set<string>; outcomes: Set<string> }>();
  let firstFailure: FirstFailure | null = null;
  const started = performance.now();
  // Runs start up to `workers` ahead (PostgreSQL: each in its own schema) and are taken in order,
  // so tallies and the first failure are those of a sweep run one at a time.
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

interface Tally {
  readonly scenario: string;
  runs: number;
  failures: number;
  undecided: number;
  /** Runs not played: the store lacks command kinds the scenario sends (sim/capabilities.ts). */
  untested: number;
  /** What the store lacks, the first time a run said so. */
  lacks?: string;
  /** Per invariant, the runs whose verdict left it out: it reads a command the store lacks. */
  unjudged: Record<string, number>;
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

function addCoverage(reached: Map<string, { commands: Set<string>; outcomes: Set<string> }>, scenario: string, coverage: RunCoverage): void {
  const entry = reached.get(scenario) ?? { commands: new Set<string>(), outcomes: new Set<string>() };
  for (const c of coverage.commands) entry.commands.add(c);
  for (const o of coverage.outcomes) entry.outcomes.add(o);
  reached.set(scenario, entry);
}

/** What the workloads reached of the port: a command or outcome never reached is a rule no checker judged. */
function printCoverage(coverage: CoverageSummary): void {
  const { commands, outcomes } = coverage;
  const missing = (list: ReadonlyArray<string>) => (list.length === 0 ? '' : pc.dim(` (never: ${list.slice(0, 8).join(', ')}${list.length > 8 ? `, +${list.length - 8} more` : ''})`));
  process.stdout.write(`coverage: ${commands.reached}/${commands.total} command kinds${missing(commands.missing)}, ${outcomes.reached}/${outcomes.total} outcomes${missing(outcomes.missing)}\n`);
}

function printSummary(
  summary: { runs: number; failures: number; undecided: number; untested: number; unjudged: Readonly<Record<string, number>>; seedsPerSecond: number; stoppedAtFirst: boolean; firstFailure: FirstFailure | null; scenarios: ReadonlyArray<Tally> },
  seconds: number,
): void {
  for (const row of summary.scenarios) {
    if (row.untested === row.runs && row.lacks !== undefined) {
      process.stdout.write(`${pc.yellow('--  ')} ${row.scenario.padEnd(34)} untested (${row.lacks})\n`);
      continue;
    }
    const mark = row.failures === 0 ? pc.green('ok  ') : pc.red('FAIL');
    const partly = row.untested > 0 ? `, ${row.untested} untested (${row.lacks})` : '';
    process.stdout.write(`${mark} ${row.scenario.padEnd(34)} ${row.runs} seeds, ${row.failures} failing${partly}\n`);
  }
  const stopped = summary.stoppedAtFirst ? ' (stopped at the first failure)' : '';
  process.stdout.write(`${summary.runs} runs in ${seconds.toFixed(1)} s (${summary.seedsPerSecond} seeds/s): ${summary.failures} failing, ${summary.undecided} undecided${summary.untested > 0 ? `, ${summary.untested} untested` : ''}${stopped}\n`);
  const notJudged = Object.entries(summary.unjudged).map(([invariant, n]) => `${invariant} in ${n} runs`);
  if (notJudged.length > 0) process.stdout.write(pc.dim(`not judged (the store lacks a command they read): ${notJudged.join(', ')}\n`));
  const first = summary.firstFailure;
  if (first !== null) {
    process.stdout.write(`${pc.red('first failure')} after ${(first.afterMs / 1000).toFixed(1)} s: ${first.scenario} seed ${first.seed}: ${first.violations.slice(0, 3).map((v) => `${v.invariant}: ${v.message}`).join('; ')}${first.violations.length > 3 ? ` (+${first.violations.length - 3} more)` : ''}\n`);
    process.stdout.write(`replay: ${first.replay}\n`);
    if (first.failureFile !== null) process.stdout.write(`failure file: ${first.failureFile}\n`);
    if (first.counterexample !== null) process.stdout.write(`\n${first.counterexample}\n`);
  }
}
