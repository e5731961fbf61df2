// Lockstep replay: the simulator driving a real PostgreSQL (embedded, or DATABASE_URL). Simulated
// time stands still while each real transaction runs, so the figure is completed client
// operations per wall second of a whole run, database round trips included.

import { resolveAdapter } from '../cli/adapters.ts';
import { loadScenario } from '../scenarios/index.ts';
import { runScenario } from '../sim/run.ts';
import { median } from './sample.ts';

export interface LockstepReplayOptions {
  readonly scenario: string;
  /** Seeds 1..seeds, one run each. */
  readonly seeds: number;
}

export interface LockstepReplayResult {
  /** Median over runs of completed client operations per wall second. */
  readonly operationsPerSecond: number;
  readonly runs: ReadonlyArray<{ readonly seed: number; readonly operations: number; readonly wallMs: number; readonly valid: true | false | 'unknown' }>;
}

export async function measureLockstepReplay(options: LockstepReplayOptions): Promise<LockstepReplayResult> {
  const scenario = loadScenario(options.scenario);
  const adapter = await resolveAdapter('postgres');
  const runs: Array<LockstepReplayResult['runs'][number]> = [];
  try {
    for (let seed = 1; seed <= options.seeds; seed++) {
      const start = performance.now();
      const result = await runScenario({ scenario, seed, store: adapter.store });
      runs.push({ seed, operations: result.operations, wallMs: performance.now() - start, valid: result.valid });
    }
  } finally {
    await adapter.close();
  }
  return { operationsPerSecond: median(runs.map((r) => r.operations / (r.wallMs / 1000))), runs };
}
