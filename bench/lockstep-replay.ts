// Lockstep replay: the simulator driving a real PostgreSQL (embedded, or DATABASE_URL). Simulated
// time stands still while each real transaction runs, so the figure is completed client
// operations per wall second of a whole run, database round trips included. With `interleave`
// the same runs go through controlled interleaving (docs/ARCHITECTURE.md "Controlled
// interleaving"): a session per node, statements released one at a time by the gate.

import type { InterleaveStrategy } from '../adapters/interleaving.ts';
import { resolveAdapter } from '../backends/index.ts';
import { loadScenario } from '../scenarios/index.ts';
import { runScenario } from '../sim/run.ts';
import { median } from './sample.ts';

export interface LockstepReplayOptions {
  readonly scenario: string;
  /** Seeds 1..seeds, one run each. */
  readonly seeds: number;
  /** Run interleaved with this strategy instead of in lockstep. */
  readonly interleave?: InterleaveStrategy;
}

export interface LockstepReplayResult {
  /** Median over runs of completed client operations per wall second. */
  readonly operationsPerSecond: number;
  readonly runs: ReadonlyArray<{ readonly seed: number; readonly operations: number; readonly wallMs: number; readonly valid: true | false | 'unknown' }>;
}

export async function measureLockstepReplay(options: LockstepReplayOptions): Promise<LockstepReplayResult> {
  const scenario = loadScenario(options.scenario);
  const adapter = await resolveAdapter('postgres', options.interleave === undefined ? {} : { interleave: options.interleave });
  const runs: Array<LockstepReplayResult['runs'][number]> = [];
  try {
    for (let seed = 1; seed <= options.seeds; seed++) {
      const start = performance.now();
      const result = await runScenario({ scenario, seed, store: adapter.store, ...(adapter.interleave === undefined ? {} : { interleave: adapter.interleave }) });
      runs.push({ seed, operations: result.operations, wallMs: performance.now() - start, valid: result.valid });
    }
  } finally {
    await adapter.close();
  }
  return { operationsPerSecond: median(runs.map((r) => r.operations / (r.wallMs / 1000))), runs };
}
