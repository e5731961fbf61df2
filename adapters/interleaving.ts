// What a store offers for controlled interleaving (docs/ARCHITECTURE.md "Controlled interleaving"):
// one session per simulated process, each with a connection of its own, and a gate that runs
// store calls of several sessions at once and lets their statements reach the server in the
// order a chooser decides. The simulator owns the chooser (seeded) and virtual time; the store
// side owns the sessions and the wire.

import type { Command } from '../model/commands.ts';
import type { Store, StoreOptions } from './port.ts';

/**
 * How the statements of a batch reach the server: chosen one at a time by a seeded walk (`random`)
 * or a PCT schedule (`pct`), both replayed exactly; or all at once as they come (`free`,
 * `--concurrency free`), for races inside one statement or one server-side function, which no
 * statement-level schedule can split. A free-running run is not replayed exactly.
 */
export type InterleaveStrategy = 'pct' | 'random' | 'free';
/** The strategies `--interleave` takes. */
export const INTERLEAVE_STRATEGIES: ReadonlyArray<InterleaveStrategy> = ['pct', 'random'];

/**
 * Store calls that reach the database within this many virtual ms of the first run as one batch.
 * Each waits at most this long for its batch: small beside the lease TTLs and timeouts of the
 * scenarios (seconds), large beside the network's delays, so calls of contending processes meet.
 */
export const INTERLEAVE_WINDOW_MS = 25;

/** Picks the next session among those with a statement held (in session order); returns its index. */
export type Chooser = (candidates: ReadonlyArray<string>) => number;

export interface SessionCall {
  readonly session: string;
  readonly command: Command;
}

export interface BatchResult {
  /** Every call's result, in the order the calls finished (ties in session order; free-running: as they came). */
  readonly settled: ReadonlyArray<{ readonly call: number; readonly result: PromiseSettledResult<unknown> }>;
  /** The session of each statement released, in release order. */
  readonly schedule: ReadonlyArray<string>;
}

export interface InterleavedStores {
  /** The store of calls made on the database host itself (setup, recovery, snapshots): never held. */
  readonly main: Store;
  /** Runs at most one call per session at once, statement by statement as `choose` decides (null: free-running). */
  runBatch(calls: ReadonlyArray<SessionCall>, choose: Chooser | null): Promise<BatchResult>;
  close(): Promise<void>;
}

export interface Interleaving {
  readonly strategy: InterleaveStrategy;
  /** Store calls arriving within this many virtual ms of the first are run as one batch. */
  readonly windowMs: number;
  /** Opens the main store and one session per name, all on one fresh database state. */
  open(options: StoreOptions, sessions: ReadonlyArray<string>): Promise<InterleavedStores>;
}
