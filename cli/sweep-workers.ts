// How many runs `sweep` has going at once (`--workers <n|auto>`): worker threads for an
// in-process store, runs in flight in this process for a PostgreSQL one, each within what the
// server's connections hold.

import type { Scenario } from '../scenarios/index.ts';
import { autoWorkers } from '../campaign/sweep-pool.ts';
import { UsageError } from './errors.ts';

const MAX_WORKERS = 64;

/**
 * Worker threads for an in-process store (`poolable`); for a PostgreSQL store or a user's store
 * (`concurrent`), runs in flight at once in this process, each on a store of its own (PostgreSQL:
 * a schema of its own), so that the server or the store's process and the simulator use a core each.
 */
export function sweepWorkers(spec: string | undefined, poolable: boolean, runs: number, concurrent = false): number {
  const value = spec ?? 'auto';
  if (value === 'auto') return poolable ? autoWorkers(runs) : 1;
  if (!/^[1-9][0-9]*$/.test(value) || Number(value) > MAX_WORKERS) throw new UsageError(`--workers must be 'auto' or an integer from 1 to ${MAX_WORKERS}, got '${value}'`);
  const workers = Number(value);
  if (workers > 1 && !poolable && !concurrent) throw new UsageError('--workers above 1 needs --faults sim and a store other than a real-fault cluster (memory, mutant:<name>, postgres, postgres-mutant:<name>, a store module or exec:), and no --stop-at-first');
  return workers;
}

/** Connections the runs in flight may hold on the server together (a default server allows 100). */
const CONNECTION_BUDGET = 90;

/**
 * `--workers n` on PostgreSQL keeps n runs open at once. A lockstep run holds a pool of up to four
 * connections; an interleaved one a connection per simulated process, two for its main store and
 * one for the lock checks (and, under `--interleave *-functions`, one for the scheduler of the
 * points inside functions, within the margin below). More than the server allows is refused up front.
 */
export function checkConnectionBudget(workers: number, scenarios: ReadonlyArray<Scenario>, interleaved: boolean): void {
  const perRun = interleaved ? Math.max(...scenarios.map((s) => s.workload.controllers)) + 2 + 3 : 4;
  const most = Math.max(1, Math.floor(CONNECTION_BUDGET / perRun));
  if (workers > most) throw new UsageError(`--workers ${workers}: these runs hold up to ${perRun} connections each, so at most ${most} fit in the server's ${CONNECTION_BUDGET} connections`);
}
