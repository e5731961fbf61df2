// Seeds per second of a scenario on one core, the whole pipeline of a sweep (plan, simulation,
// checkers; a sweep takes the trace hash of failing runs only), and simulated time per wall time (docs/ARCHITECTURE.md "Performance targets":
// standard-mix at 500 seeds/s per core or better; simulated time 10,000× faster than real time).

import { inProcessAdapter } from '../mutants/in-process.ts';
import { loadScenario } from '../scenarios/index.ts';
import { runScenario } from '../sim/run.ts';
import { median, rounds } from './sample.ts';

export interface SeedThroughputOptions {
  readonly scenario: string;
  /** Seeds per round (1..seeds). */
  readonly seeds: number;
  readonly rounds: number;
}

export interface SeedThroughputSample {
  readonly seedsPerSecond: number;
  readonly simulatedMsPerWallMs: number;
}

export interface SeedThroughputResult extends SeedThroughputSample {
  /** Completed client operations per run (the scenario's size as a run counts it). */
  readonly operationsPerRun: number;
  readonly eventsPerRun: number;
  readonly samples: ReadonlyArray<SeedThroughputSample>;
}

const { store } = inProcessAdapter('memory')!;

export async function measureSeedThroughput(options: SeedThroughputOptions): Promise<SeedThroughputResult> {
  const scenario = loadScenario(options.scenario);
  for (let seed = 1; seed <= Math.min(10, options.seeds); seed++) await runScenario({ scenario, seed, store });
  let operations = 0;
  let events = 0;
  const samples = await rounds(options.rounds, async () => {
    let simulatedMs = 0;
    operations = 0;
    events = 0;
    const start = performance.now();
    for (let seed = 1; seed <= options.seeds; seed++) {
      const result = await runScenario({ scenario, seed, store });
      if (result.valid !== true) throw new Error(`${options.scenario} seed ${seed} must pass to be a throughput figure: ${result.replay}`);
      simulatedMs += result.simulatedMs;
      operations += result.operations;
      events += result.events;
    }
    const wallMs = performance.now() - start;
    return { seedsPerSecond: options.seeds / (wallMs / 1000), simulatedMsPerWallMs: simulatedMs / wallMs };
  });
  return {
    seedsPerSecond: median(samples.map((s) => s.seedsPerSecond)),
    simulatedMsPerWallMs: median(samples.map((s) => s.simulatedMsPerWallMs)),
    operationsPerRun: operations / options.seeds,
    eventsPerRun: events / options.seeds,
    samples,
  };
}
