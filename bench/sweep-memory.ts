// Memory of a long sweep: a run keeps nothing once its result is summarized, so heap and RSS must
// stay flat as seeds accumulate. Samples at a fixed cadence; with `--expose-gc` each sample is
// taken after a full collection, so it shows what is retained rather than what awaits collection.

import { inProcessAdapter } from '../mutants/in-process.ts';
import { loadScenario } from '../scenarios/index.ts';
import { runScenario } from '../sim/run.ts';

export interface SweepMemoryOptions {
  readonly scenario: string;
  readonly seeds: number;
  /** A sample every this many seeds. */
  readonly sampleEvery: number;
}

export interface MemorySample {
  readonly seeds: number;
  readonly heapUsedMb: number;
  readonly rssMb: number;
}

export interface SweepMemoryResult {
  readonly samples: ReadonlyArray<MemorySample>;
  /** Heap after 10%, 50% and 100% of the sweep (1k, 5k and 10k seeds of a 10,000-seed sweep). */
  readonly checkpoints: ReadonlyArray<MemorySample>;
  readonly peakRssMb: number;
  readonly peakHeapUsedMb: number;
  /** Heap at the end over heap at the first checkpoint: about 1 when flat. */
  readonly heapGrowth: number;
  /** Whether samples follow a full collection (node --expose-gc). */
  readonly collected: boolean;
  readonly failures: number;
}

const MB = 1024 * 1024;

function sample(seeds: number): MemorySample {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc !== undefined) gc();
  const usage = process.memoryUsage();
  return { seeds, heapUsedMb: usage.heapUsed / MB, rssMb: usage.rss / MB };
}

export async function measureSweepMemory(options: SweepMemoryOptions): Promise<SweepMemoryResult> {
  const scenario = loadScenario(options.scenario);
  const { store } = inProcessAdapter('memory')!;
  const marks = new Set([Math.round(options.seeds / 10), Math.round(options.seeds / 2), options.seeds]);
  const samples: MemorySample[] = [sample(0)];
  const checkpoints: MemorySample[] = [];
  let failures = 0;
  for (let seed = 1; seed <= options.seeds; seed++) {
    // What a sweep keeps of a run: its verdict, nothing of its history.
    const result = await runScenario({ scenario, seed, store });
    if (result.valid !== true) failures++;
    const atMark = marks.has(seed);
    if (seed % options.sampleEvery === 0 || atMark) {
      const taken = sample(seed);
      samples.push(taken);
      if (atMark) checkpoints.push(taken);
    }
  }
  const first = checkpoints[0]!;
  const last = checkpoints[checkpoints.length - 1]!;
  return {
    samples,
    checkpoints,
    peakRssMb: Math.max(...samples.map((s) => s.rssMb)),
    peakHeapUsedMb: Math.max(...samples.map((s) => s.heapUsedMb)),
    heapGrowth: last.heapUsedMb / first.heapUsedMb,
    collected: (globalThis as { gc?: () => void }).gc !== undefined,
    failures,
  };
}
