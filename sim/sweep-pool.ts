// A sweep across cores: the same runs as a single-threaded sweep, spread over worker threads.
// Every run is a pure function of (scenario, seed, adapter), so where it runs changes nothing;
// results come back in (scenario, seed) order, identical to running them one after another.
//
// The same file is the worker's entry: a worker thread loads it with `workerData.role` set and
// serves batches of seeds until told to stop.

import { strict as assert } from 'node:assert';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import createMemoryStore from '../adapters/memory.ts';
import { MUTANTS, mutantStoreFactory } from '../adapters/mutants/index.ts';
import { loadScenario } from '../scenarios/index.ts';
import { runScenario, type StoreChoice } from './run.ts';

const ROLE = 'sweep-pool-worker';
/** Seeds handed to a worker at a time: large enough to amortize a message, small enough to balance. */
const BATCH_SEEDS = 16;

/** What a sweep keeps of one run: the RunResult contract without the history. */
export interface SweepRun {
  readonly scenario: string;
  readonly seed: number;
  readonly traceHash: string;
  readonly events: number;
  readonly operations: number;
  readonly valid: true | false | 'unknown';
  readonly violations: ReadonlyArray<{ readonly invariant: string; readonly message: string }>;
  readonly simulatedMs: number;
}

export interface SweepPoolOptions {
  readonly scenarios: ReadonlyArray<string>;
  readonly seeds: ReadonlyArray<number>;
  /** `memory` or `mutant:<name>`: stores a worker can build by name. */
  readonly adapter: string;
  /** Worker threads (default: the machine's parallelism). */
  readonly workers?: number;
}

interface Batch {
  readonly id: number;
  readonly scenario: string;
  readonly seeds: ReadonlyArray<number>;
}

function storeFor(adapter: string): StoreChoice {
  if (adapter === 'memory') return { name: 'memory', factory: createMemoryStore };
  const name = adapter.startsWith('mutant:') ? adapter.slice('mutant:'.length) : null;
  const mutant = MUTANTS.find((m) => m.name === name);
  if (mutant === undefined) throw new Error(`sweep pool: adapter '${adapter}' is not 'memory' or a known 'mutant:<name>'`);
  if (mutant.policy !== undefined) throw new Error(`sweep pool: mutant ${mutant.name} is a controller policy, not a store`);
  return { name: adapter, factory: mutantStoreFactory(mutant, createMemoryStore) };
}

/** One run, reduced to what a sweep reports. */
export async function sweepRun(scenarioName: string, seed: number, adapter: string): Promise<SweepRun> {
  const r = await runScenario({ scenario: loadScenario(scenarioName), seed, store: storeFor(adapter) });
  return {
    scenario: r.scenario,
    seed: r.seed,
    traceHash: r.traceHash,
    events: r.events,
    operations: r.operations,
    valid: r.valid,
    violations: r.violations.map((v) => ({ invariant: v.invariant, message: v.message })),
    simulatedMs: r.simulatedMs,
  };
}

/** Runs every (scenario, seed) on a pool of worker threads; results in (scenario, seed) order. */
export async function sweepPool(options: SweepPoolOptions): Promise<ReadonlyArray<SweepRun>> {
  const workers = options.workers ?? availableParallelism();
  assert.ok(Number.isInteger(workers) && workers >= 1, `sweep pool: workers must be a positive integer, got ${workers}`);
  storeFor(options.adapter);
  const batches: Batch[] = [];
  for (const scenario of options.scenarios) {
    for (let i = 0; i < options.seeds.length; i += BATCH_SEEDS) batches.push({ id: batches.length, scenario, seeds: options.seeds.slice(i, i + BATCH_SEEDS) });
  }
  const results: Array<ReadonlyArray<SweepRun> | undefined> = new Array(batches.length);
  let next = 0;
  // Workers load TypeScript through tsx, whatever runs the parent (tsx, vitest, plain node): a
  // small bootstrap registers its loader in the worker, then imports this file.
  // (tsx's own entry registers only on the main thread; its API registers anywhere.)
  const api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const serve = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const worker = new Worker(bootstrap, { eval: true, workerData: { role: ROLE, adapter: options.adapter } });
      const feed = (): void => {
        const batch = batches[next++];
        if (batch === undefined) void worker.terminate().then(() => resolve(), reject);
        else worker.postMessage(batch);
      };
      worker.on('message', (message: { id: number; runs: ReadonlyArray<SweepRun> }) => {
        results[message.id] = message.runs;
        feed();
      });
      worker.on('error', reject);
      worker.once('online', feed);
    });
  await Promise.all(Array.from({ length: Math.min(workers, Math.max(1, batches.length)) }, serve));
  return results.flatMap((runs, i) => {
    assert.ok(runs !== undefined, `sweep pool: batch ${i} came back`);
    return runs;
  });
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === ROLE) {
  const adapter = (workerData as { adapter: string }).adapter;
  parentPort!.on('message', (batch: Batch) => {
    void (async () => {
      const runs: SweepRun[] = [];
      for (const seed of batch.seeds) runs.push(await sweepRun(batch.scenario, seed, adapter));
      parentPort!.postMessage({ id: batch.id, runs });
    })();
  });
}
