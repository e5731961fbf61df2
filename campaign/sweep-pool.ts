// A sweep across cores: the same runs as a single-threaded sweep, spread over worker threads.
// Every run is a pure function of (scenario, seed, adapter), so where it runs changes nothing;
// results come back in (scenario, seed) order, identical to running them one after another.
// Only stores that a worker can rebuild from their name run here (mutants/in-process.ts).
//
// The same file is the worker's entry: a worker thread loads it with `workerData.role` set and
// serves batches of seeds until told to stop.

import { strict as assert } from 'node:assert';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { inProcessAdapter, type InProcessAdapter } from '../mutants/in-process.ts';
import type { Scenario } from '../scenarios/index.ts';
import { coverageOf, type RunCoverage } from '../sim/coverage.ts';
import { runScenario } from '../sim/run.ts';
import { bundledEntry } from './worker-bundle.ts';

const ROLE = 'sweep-pool-worker';
/** Seeds handed to a worker at a time: large enough to amortize a message, small enough to balance. */
const BATCH_SEEDS = 16;
/** Below this many runs, starting workers (each loads the testbed anew) costs more than it saves. */
const POOL_MIN_RUNS = 256;
const MAX_WORKERS = 64;
/** How many batches per worker may be out past the oldest one not yet handed on in order. */
const BATCHES_AHEAD_PER_WORKER = 4;

/** The worker threads a sweep of `runs` runs uses by default: one per core for large sweeps, else none (1 = this thread). */
export function autoWorkers(runs: number): number {
  return runs >= POOL_MIN_RUNS ? Math.min(availableParallelism(), MAX_WORKERS) : 1;
}

/** What a sweep keeps of one run: the RunResult contract without the history. */
export interface SweepRun {
  readonly scenario: string;
  readonly seed: number;
  /** Null for a run that did not fail, in a sweep that keeps the hashes of failing runs only (`traceHashes`). */
  readonly traceHash: string | null;
  readonly events: number;
  readonly operations: number;
  readonly valid: true | false | 'unknown';
  readonly violations: ReadonlyArray<{ readonly invariant: string; readonly message: string }>;
  readonly simulatedMs: number;
  /** Why the run was not played (the store lacks command kinds it needs; sim/capabilities.ts). */
  readonly untested?: string;
  /** Invariants left out of the verdict because they read a command the store lacks. */
  readonly unjudged?: ReadonlyArray<{ readonly invariant: string }>;
  /** Command and outcome kinds the run reached (sim/coverage.ts). */
  readonly coverage: RunCoverage;
}

/** A run that failed: it carries its trace hash whatever the sweep's `traceHashes`. */
export type FailingSweepRun = SweepRun & { readonly traceHash: string };

export function failingRun(run: SweepRun): FailingSweepRun {
  assert.ok(run.valid === false && run.traceHash !== null, `${run.scenario} seed ${run.seed} is not a failing run with its trace hash`);
  return run as FailingSweepRun;
}

export interface SweepPoolOptions {
  readonly scenarios: ReadonlyArray<Scenario>;
  readonly seeds: ReadonlyArray<number>;
  /** `memory` or `mutant:<name>`: stores a worker can build by name. */
  readonly adapter: string;
  /** Worker threads (default: the machine's parallelism). */
  readonly workers?: number;
  /** Called on the main thread as each batch of runs comes back (in completion order), for progress. */
  readonly onRuns?: (runs: ReadonlyArray<SweepRun>) => void;
  /**
   * Whose trace hash a run carries: every run's (the default), or only a failing run's, when the
   * sweep compares no hashes of passing runs. The hash is a pass over the whole history, about a
   * sixth of a run, taken only when asked for (sim/run.ts).
   */
  readonly traceHashes?: TraceHashes;
}

export type TraceHashes = 'every run' | 'failing runs';

interface Batch {
  readonly id: number;
  /** Index into the scenarios the worker was started with. */
  readonly scenario: number;
  readonly seeds: ReadonlyArray<number>;
}

interface WorkerSetup {
  readonly role: typeof ROLE;
  readonly adapter: string;
  readonly scenarios: ReadonlyArray<Scenario>;
  readonly traceHashes: TraceHashes;
}

function adapterOf(spec: string): InProcessAdapter {
  const adapter = inProcessAdapter(spec);
  if (adapter === null) throw new Error(`sweep pool: adapter '${spec}' is not 'memory' or a known 'mutant:<name>'`);
  return adapter;
}

/** One run, reduced to what a sweep reports. */
export async function sweepRun(scenario: Scenario, seed: number, adapter: InProcessAdapter | string, traceHashes: TraceHashes = 'every run'): Promise<SweepRun> {
  const { store, policy } = typeof adapter === 'string' ? adapterOf(adapter) : adapter;
  const r = await runScenario({ scenario, seed, store, ...(policy === undefined ? {} : { policy }) });
  return {
    scenario: r.scenario,
    seed: r.seed,
    traceHash: traceHashes === 'every run' || r.valid === false ? r.traceHash : null,
    events: r.events,
    operations: r.operations,
    valid: r.valid,
    violations: r.violations.map((v) => ({ invariant: v.invariant, message: v.message })),
    simulatedMs: r.simulatedMs,
    ...(r.untested === undefined ? {} : { untested: r.untested }),
    ...(r.unjudged === undefined ? {} : { unjudged: r.unjudged.map((u) => ({ invariant: u.invariant })) }),
    coverage: coverageOf(r.history),
  };
}

/**
 * The code a worker thread starts with: it imports this file. Compiled JavaScript (the installed
 * package, dist/) is imported as it is. TypeScript sources are loaded through tsx, whatever runs
 * the parent (tsx, vitest, plain node): the bootstrap registers its loader in the worker first
 * (tsx's own entry registers only on the main thread; its API registers anywhere).
 */
export function workerBootstrap(self: string): string {
  if (!self.endsWith('.ts')) return `import(${JSON.stringify(self)})`;
  const api = pathToFileURL(createRequire(self).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  return `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(self)}); })`;
}

/**
 * The worker's code: from the TypeScript sources, it imports their bundle (campaign/worker-bundle.ts)
 * when one can be made, which starts a worker in a fraction of the time; else as workerBootstrap.
 */
export async function workerCode(self: string): Promise<string> {
  const bundled = self.endsWith('.ts') ? await bundledEntry(self) : null;
  return bundled === null ? workerBootstrap(self) : `import(${JSON.stringify(bundled)})`;
}

/** Runs every (scenario, seed) on a pool of worker threads; results in (scenario, seed) order. */
export async function sweepPool(options: SweepPoolOptions): Promise<ReadonlyArray<SweepRun>> {
  const runs: SweepRun[] = [];
  await sweepPoolEach(options, (run) => {
    runs.push(run);
  });
  return runs;
}

/**
 * Runs every (scenario, seed) on a pool of worker threads and hands each run to `onRun` in
 * (scenario, seed) order, as soon as every run before it has come back: `index` is the run's place
 * in that order (scenario by scenario, seed by seed). Nothing is kept once handed on, and workers
 * run at most a few batches ahead of the oldest run not yet handed on, so memory stays bounded
 * however long the sweep. An error thrown by `onRun` stops the pool and rejects.
 */
export async function sweepPoolEach(options: SweepPoolOptions, onRun: (run: SweepRun, index: number) => void): Promise<void> {
  const workers = options.workers ?? availableParallelism();
  assert.ok(Number.isInteger(workers) && workers >= 1, `sweep pool: workers must be a positive integer, got ${workers}`);
  adapterOf(options.adapter);
  const batches: Batch[] = [];
  options.scenarios.forEach((_, scenario) => {
    for (let i = 0; i < options.seeds.length; i += BATCH_SEEDS) batches.push({ id: batches.length, scenario, seeds: options.seeds.slice(i, i + BATCH_SEEDS) });
  });
  // Batches back early, waiting for those before them; the next batch to hand on; runs handed on.
  const waiting = new Map<number, ReadonlyArray<SweepRun>>();
  let delivered = 0;
  let handedOn = 0;
  // Batches handed out at most this far past the oldest one not yet handed on (a slow batch holds
  // back the rest); workers that would go further wait here until it comes back.
  const ahead = BATCHES_AHEAD_PER_WORKER * workers;
  const idle: Array<() => void> = [];
  let next = 0;
  const bootstrap = await workerCode(import.meta.url);
  const setup: WorkerSetup = { role: ROLE, adapter: options.adapter, scenarios: options.scenarios, traceHashes: options.traceHashes ?? 'every run' };
  const started: Worker[] = [];
  const handOn = (): void => {
    for (let runs = waiting.get(delivered); runs !== undefined; runs = waiting.get(delivered)) {
      waiting.delete(delivered++);
      for (const run of runs) onRun(run, handedOn++);
    }
    while (idle.length > 0 && (next >= batches.length || next < delivered + ahead)) idle.shift()!();
  };
  const serve = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const worker = new Worker(bootstrap, { eval: true, workerData: setup });
      started.push(worker);
      let done = false;
      const feed = (): void => {
        if (next < batches.length && next >= delivered + ahead) {
          idle.push(feed);
          return;
        }
        const batch = batches[next++];
        if (batch === undefined) {
          done = true;
          void worker.terminate().then(() => resolve(), reject);
        } else {
          worker.postMessage(batch);
        }
      };
      worker.on('message', (message: { id: number; runs: ReadonlyArray<SweepRun> }) => {
        try {
          waiting.set(message.id, message.runs);
          options.onRuns?.(message.runs);
          handOn();
        } catch (error) {
          reject(error);
          return;
        }
        feed();
      });
      worker.on('error', reject);
      worker.on('exit', (code) => {
        if (!done) reject(new Error(`sweep pool: a worker exited with code ${code} before its work was done`));
      });
      worker.once('online', feed);
    });
  try {
    await Promise.all(Array.from({ length: Math.min(workers, Math.max(1, batches.length)) }, serve));
  } catch (error) {
    // One worker failed: stop the others rather than leave them running behind the error.
    next = batches.length + 1;
    idle.length = 0;
    await Promise.all(started.map((worker) => worker.terminate()));
    throw error;
  }
  assert.ok(delivered === batches.length, `sweep pool: batch ${delivered} never came back`);
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === ROLE) {
  const setup = workerData as WorkerSetup;
  const adapter = adapterOf(setup.adapter);
  parentPort!.on('message', (batch: Batch) => {
    void (async () => {
      const runs: SweepRun[] = [];
      for (const seed of batch.seeds) runs.push(await sweepRun(setup.scenarios[batch.scenario]!, seed, adapter, setup.traceHashes));
      parentPort!.postMessage({ id: batch.id, runs });
    })();
  });
}
