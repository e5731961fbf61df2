// `testbed sweep`: one scenario (or every scenario that must pass) over a range of seeds. The
// first failure is written to out/failures/ and its replay line printed.

import pc from 'picocolors';
import { listScenarios, type Scenario } from '../../scenarios/index.ts';
import { runScenario, type SimRunResult } from '../../sim/run.ts';
import { resolveAdapter, type ResolvedAdapter } from '../adapters.ts';
import { EXIT, UsageError } from '../errors.ts';
import { printJson } from '../format.ts';
import { startProgress } from '../progress.ts';
import { startRealRun } from '../real-faults.ts';
import { recordFailure } from '../record-failure.ts';
import { loadScenarioOrFail, replayFor } from '../scenario-arg.ts';
import { parseSeedRange, parseShard, seedsOf } from '../seeds.ts';

export interface SweepOptions {
  readonly scenario: string;
  readonly seeds: string;
  readonly adapter: string;
  readonly faults: 'sim' | 'real';
  readonly shard?: string;
  readonly json?: boolean;
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
  readonly failureFile: string;
  /** The shrunk counterexample (in-process stores only), printed, not part of the JSON. */
  readonly counterexample: string | null;
}

export async function sweepCommand(options: SweepOptions): Promise<void> {
  const scenarios: ReadonlyArray<Scenario> =
    options.scenario === 'all' ? listScenarios().filter((s) => s.expect === 'pass') : [loadScenarioOrFail(options.scenario)];
  const seeds = seedsOf(parseSeedRange(options.seeds), options.shard === undefined ? undefined : parseShard(options.shard));
  if (seeds.length === 0) throw new UsageError(`shard ${options.shard} of ${options.seeds} holds no seed`);
  if (options.faults === 'real' && options.adapter !== 'postgres') throw new UsageError(`--faults real needs --adapter postgres (got ${options.adapter})`);

  const adapter = options.faults === 'real' ? REAL_POSTGRES : await resolveAdapter(options.adapter);
  const progress = startProgress(scenarios.length * seeds.length, 'sweep', !options.json);
  const perScenario: Array<{ scenario: string; runs: number; failures: number; undecided: number }> = [];
  let firstFailure: FirstFailure | null = null;
  let runs = 0;
  let failures = 0;
  let undecided = 0;
  const started = performance.now();
  try {
    for (const scenario of scenarios) {
      const tally = { scenario: scenario.name, runs: 0, failures: 0, undecided: 0 };
      for (const seed of seeds) {
        const scenarioArg = options.scenario === 'all' ? scenario.name : options.scenario;
        const replay = replayFor(scenarioArg, seed, adapter.name, options.faults);
        // With real faults every run gets its own primary/replica pair: a failover uses one up.
        const real = options.faults === 'real' ? await startRealRun(runs + tally.runs + 1) : undefined;
        let result: SimRunResult;
        try {
          result = await runScenario({
            scenario,
            seed,
            store: real?.store ?? adapter.store,
            faults: options.faults,
            replay,
            ...(real === undefined ? {} : { realFaults: real.driver }),
            ...(adapter.policy === undefined ? {} : { policy: adapter.policy }),
          });
        } finally {
          await real?.close();
        }
        tally.runs++;
        if (result.valid === false) {
          tally.failures++;
          if (firstFailure === null) {
            const recorded = await recordFailure(result, scenario, adapter, options.faults === 'sim');
            firstFailure = { scenario: result.scenario, seed: result.seed, violations: result.violations, replay: result.replay, failureFile: recorded.file, counterexample: recorded.counterexample };
          }
        } else if (result.valid === 'unknown') {
          tally.undecided++;
        }
        progress.tick(`${scenario.name}#${seed}${tally.failures > 0 ? ` ${tally.failures} failing` : ''}`);
      }
      perScenario.push(tally);
      runs += tally.runs;
      failures += tally.failures;
      undecided += tally.undecided;
    }
  } finally {
    progress.stop();
    await adapter.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const seedsPerSecond = Math.round((runs / Math.max(seconds, 1e-9)) * 10) / 10;
  const summary = { scenario: options.scenario, adapter: adapter.name, runs, failures, firstFailure, seedsPerSecond, undecided, scenarios: perScenario };
  if (options.json) printJson({ ...summary, firstFailure: firstFailure === null ? null : { ...firstFailure, counterexample: undefined } });
  else printSummary(summary, seconds);
  process.exitCode = failures > 0 ? EXIT.violation : undecided > 0 ? EXIT.undecided : EXIT.ok;
}

function printSummary(
  summary: { runs: number; failures: number; undecided: number; seedsPerSecond: number; firstFailure: FirstFailure | null; scenarios: ReadonlyArray<{ scenario: string; runs: number; failures: number }> },
  seconds: number,
): void {
  for (const row of summary.scenarios) {
    const mark = row.failures === 0 ? pc.green('ok  ') : pc.red('FAIL');
    process.stdout.write(`${mark} ${row.scenario.padEnd(34)} ${row.runs} seeds, ${row.failures} failing\n`);
  }
  process.stdout.write(`${summary.runs} runs in ${seconds.toFixed(1)} s (${summary.seedsPerSecond} seeds/s): ${summary.failures} failing, ${summary.undecided} undecided\n`);
  const first = summary.firstFailure;
  if (first !== null) {
    process.stdout.write(`${pc.red('first failure')}: ${first.scenario} seed ${first.seed}: ${first.violations.slice(0, 3).map((v) => `${v.invariant}: ${v.message}`).join('; ')}${first.violations.length > 3 ? ` (+${first.violations.length - 3} more)` : ''}\n`);
    process.stdout.write(`replay: ${first.replay}\n`);
    process.stdout.write(`failure file: ${first.failureFile}\n`);
    if (first.counterexample !== null) process.stdout.write(`\n${first.counterexample}\n`);
  }
}
