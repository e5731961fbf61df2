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
 * `random-functions` and `pct-functions` choose the same way, and also stop every session at a
 * scheduling point before each statement of the PL/pgSQL functions of the run's schema
 * (postgres/interleave/function-points.ts), so races between two statements of one server-side
 * function are scheduled and replayed exactly too.
 */
export type InterleaveStrategy = 'pct' | 'random' | 'free' | 'random-functions' | 'pct-functions';
/** The strategies `--interleave` takes. */
export const INTERLEAVE_STRATEGIES: ReadonlyArray<InterleaveStrategy> = ['pct', 'random', 'random-functions', 'pct-functions'];

/** The seeded chooser a strategy uses (null: free-running). */
export function chooserOf(strategy: InterleaveStrategy): 'random' | 'pct' | null {
  return strategy === 'free' ? null : strategy === 'random' || strategy === 'random-functions' ? 'random' : 'pct';
}

/** Whether a strategy schedules inside server-side functions as well as between client statements. */
export function insideFunctions(strategy: InterleaveStrategy): boolean {
  return strategy === 'random-functions' || strategy === 'pct-functions';
}

/**
 * Store calls that reach the database within this many virtual ms of the first run as one batch.
 * Each waits at most this long for its batch: small beside the lease TTLs and timeouts of the
 * scenarios (seconds), large beside the network's delays, so calls of contending processes meet.
 */
export const INTERLEAVE_WINDOW_MS = 25;

/**
 * Picks the next session among those with a statement held (in session order); returns its index.
 * `steps` says what each candidate would do: the SQL text of its held statement, or null for a
 * step past a point inside a function or a move of store time (its effect is not known here).
 */
export type Chooser = (candidates: ReadonlyArray<string>, steps?: ReadonlyArray<string | null>) => number;

/**
 * The pseudo-session a chooser may pick, when store time passes during a batch, to move store time
 * on to the next instant at which a call of the batch reached the database (or the batch's end).
 */
export const CLOCK_SESSION = '@clock';

export interface SessionCall {
  readonly session: string;
  readonly command: Command;
  /** The virtual time the call reached the database: with time passing, none of its statements goes before store time reaches it. */
  readonly arrivedAt: number;
}

export interface SettledCall {
  readonly call: number;
  readonly result: PromiseSettledResult<unknown>;
  /** The store times the call may have read: every instant store time took while it ran. */
  readonly storeTimes: ReadonlyArray<number>;
}

export interface BatchResult {
  /** Every call's result, in the order the calls finished (ties in session order; free-running: as they came). */
  readonly settled: ReadonlyArray<SettledCall>;
  /**
   * The session of each step, in order: `s1` where a statement of s1 was released, `s1@12` where
   * s1 ran on past scheduling point 12 inside a server-side function, and CLOCK_SESSION where
   * store time moved on.
   */
  readonly schedule: ReadonlyArray<string>;
  /** The server-side functions given scheduling points before this batch, and those that could not be, when any were new. */
  readonly instrumented?: {
    readonly functions: ReadonlyArray<{ readonly signature: string; readonly points: number }>;
    readonly skipped: ReadonlyArray<{ readonly signature: string; readonly reason: string }>;
  };
}

/**
 * A store run with passing time may say which store time its last call decided with (null: it
 * cannot tell); the shadow model then explains that call at that time alone.
 */
export interface StoreTimeReport {
  lastStoreTime(): number | null;
}

export function reportsStoreTime(store: object): store is StoreTimeReport {
  return typeof (store as Partial<StoreTimeReport>).lastStoreTime === 'function';
}

export interface InterleavedStores {
  /** The store of calls made on the database host itself (setup, recovery, snapshots): never held. */
  readonly main: Store;
  /**
   * Store time passes during a batch (`passingTime`): it starts at the first call's arrival and
   * moves, when the chooser picks CLOCK_SESSION, through the later arrivals up to the batch's end.
   * Only a store that reads store time in SQL after its locks (the built-in stores: database
   * time) can be run so; for the others store time is the batch's end throughout.
   */
  readonly passingTime: boolean;
  /**
   * Runs at most one call per session at once, statement by statement as `choose` decides (null:
   * free-running), the batch ending at store time `end`.
   */
  runBatch(calls: ReadonlyArray<SessionCall>, choose: Chooser | null, end: number): Promise<BatchResult>;
  close(): Promise<void>;
}

export interface Interleaving {
  readonly strategy: InterleaveStrategy;
  /** Store calls arriving within this many virtual ms of the first are run as one batch. */
  readonly windowMs: number;
  /** Opens the main store and one session per name, all on one fresh database state. */
  open(options: StoreOptions, sessions: ReadonlyArray<string>): Promise<InterleavedStores>;
  /** The same store on the same server, interleaved by another strategy (race steps inside functions so). */
  withStrategy(strategy: InterleaveStrategy): Interleaving;
}
