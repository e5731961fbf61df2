// Seeds per second across cores: the sweep pool (campaign/sweep-pool.ts) running a scenario on every
// core, beside the one-core figure. Worker start-up (loading TypeScript) is included, as a sweep
// pays it too.

import { availableParallelism } from 'node:os';
import { loadScenario } from '../scenarios/index.ts';
import { sweepPool } from '../campaign/sweep-pool.ts';

export interface PoolThroughputOptions {
  readonly scenario: string;
  readonly seeds: number;
  /** Worker threads (default: the machine's parallelism). */
  readonly workers?: number;
}

export interface PoolThroughputResult {
  readonly workers: number;
  readonly seedsPerSecond: number;
  readonly failures: number;
}

export async function measurePoolThroughput(options: PoolThroughputOptions): Promise<PoolThroughputResult> {
  const workers = options.workers ?? availableParallelism();
  const seeds = Array.from({ length: options.seeds }, (_, i) => i + 1);
  const start = performance.now();
  // As `testbed sweep` runs it: the trace hashes of failing runs only.
  const runs = await sweepPool({ scenarios: [loadScenario(options.scenario)], seeds, adapter: 'memory', workers, traceHashes: 'failing runs' });
  const wallMs = performance.now() - start;
  return { workers, seedsPerSecond: runs.length / (wallMs / 1000), failures: runs.filter((r) => r.valid !== true).length };
}
