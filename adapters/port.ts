// The store port (docs/ARCHITECTURE.md "The store port"): the one interface that the memory adapter, the
// PostgreSQL adapter, every mutant and a user's `--adapter ./module.ts` implement.
//
// Rules it encodes:
// - The store's own clock decides expiry (seed 000 §79–§82). A store reads time from the
//   `TimeSource` it is given: virtual time in the simulator and in replay; 'database' means the
//   server's own clock (`clock_timestamp()` in PostgreSQL).
// - Domain outcomes are returned values (`OutcomeOf<C>`); exceptions are for bugs and for
//   infrastructure failure. An infrastructure failure on a write is an unknown outcome: the
//   caller records it as `info`, not as `fail`.

import type { Command } from '../model/commands.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import type { RenewalKind } from '../model/state.ts';

export interface TimeSource {
  /** Current store time in integer milliseconds. */
  now(): number;
}

/** An opaque picture of a store's durable state, for simulated failover and restore. */
export interface StoreImage {
  readonly adapter: string;
  readonly data: unknown;
}

/** What a store declares about itself. Every field is optional; the defaults describe a store that follows the reference semantics. */
export interface StoreCapabilities {
  /**
   * Whether the store follows model/SEMANTICS.md outcome for outcome (default true). Then every
   * outcome it gives in a simulated run is compared with the reference model's (the
   * `differential` invariant); a store with semantics of its own says false, and is judged by
   * the history checkers alone.
   */
  readonly referenceSemantics?: boolean;
  /**
   * The command kinds the store implements (default: every kind of the port). The command-level
   * check sends no other kind.
   */
  readonly commands?: ReadonlyArray<Command['kind']>;
  /**
   * The store's answers depend only on the commands it is sent and the store time it is given:
   * no wall clock, no randomness, nothing kept from an earlier store (default false for a user's
   * store). Then a failing run is shrunk as the built-in stores' are: the shrinker runs smaller
   * plans on fresh stores and keeps those that still fail the same way.
   */
  readonly deterministic?: boolean;
  /**
   * What bounds a lease (default 'ttl'): 'ttl', the reference semantics, a lease is live until
   * its `expiresAt` unless ended sooner; 'session', a lease lives as long as its holder's session
   * with the store (an advisory lock, an ephemeral node): its `expiresAt` is only what the store
   * reports, and it ends when released or when `lifecycle` says it ended with its session. A store
   * with session-bound leases does not follow the reference semantics: the differential is off.
   */
  readonly leaseBound?: 'ttl' | 'session';
  /**
   * What fences a lease (default 'integer'): 'integer', the reference semantics, a token that
   * strictly increases per scope; 'opaque', a value of the store's own that names one grant and
   * has no order (a job id and attempt): the store answers it where a token goes, a string or a
   * number, and is sent it back wherever a command carries a token; 'none', the store has no fence
   * and leaves tokens out. The simulator gives such fences integer ids in the order the store shows
   * them (sim/fence-ids.ts); the checkers judge no order of them, a ForceReleased `nextToken` is
   * not read, and the differential is off.
   */
  readonly fencing?: 'integer' | 'opaque' | 'none';
  /**
   * What a granted Renew does (default 'extends'): 'extends', the reference semantics, the lease
   * now runs until now + ttlMs; 'confirms', the store answers Renewed while the lease is held but
   * leaves its expiry where it was (a lock library without heartbeats or TTL refresh): the
   * Renewed answer carries the lease's unchanged `expiresAt`. The reference model follows the
   * store's kind in the differential, the command-level check and the conformance suite, and the
   * simulated controllers count a confirmation as no extension of their lease's validity window.
   */
  readonly renewal?: RenewalKind;
}

/**
 * Who makes a store call: the controller incarnation (`c1#2`) whose fiber sent it — its main
 * fiber, its heartbeat or a cancellation alike — and its node (`c1`). Lifecycle events name the
 * same incarnations.
 */
export interface CallContext {
  readonly process: string;
  readonly node: string;
}

/**
 * What happened to a process or to its connection to the store, as the simulator tells a store
 * that has `lifecycle` (docs/ARCHITECTURE.md "Sessions and lifecycle"):
 * - `crash`: the process died; its sessions are gone (the server sees its connections close);
 * - `restart`: a new incarnation of the node starts (`process` is the new one);
 * - `pause` / `resume`: the process stops running and goes on; its connections stay open;
 * - `cut-off` / `reconnect`: the network between the node and the database broke, and healed;
 * - `database-crash`: the database server stopped; every session is gone (`process` and `node` are null).
 */
export interface LifecycleEvent {
  readonly kind: 'crash' | 'restart' | 'pause' | 'resume' | 'cut-off' | 'reconnect' | 'database-crash';
  readonly process: string | null;
  readonly node: string | null;
}

/** A lease that ended with its holder's session: the history records it, and no act under it is valid after. */
export interface SessionLeaseEnd {
  readonly scope: string;
  readonly holder: string;
  readonly token: number;
}

export interface Store {
  readonly name: string;
  readonly capabilities?: StoreCapabilities;
  /**
   * Runs one command. `call` says which controller incarnation makes it, on the calls a simulated
   * run sends one at a time; setup and recovery on the database host, and interleaved batches,
   * come without it.
   */
  execute<C extends Command>(command: C, call?: CallContext): Promise<OutcomeOf<C>>;
  /**
   * Told what happens to the processes and their sessions, at the instant it happens (simulated
   * time stands still). Answers the leases that ended with a session, if any.
   */
  lifecycle?(event: LifecycleEvent): Promise<{ readonly ended?: ReadonlyArray<SessionLeaseEnd> } | void>;
  /** Capture durable state (simulated backup, or the replica's copy at a replication point). */
  snapshot?(): Promise<StoreImage>;
  /** Replace durable state with an earlier image (simulated restore, or promotion of a lagging replica). */
  restore?(image: StoreImage): Promise<void>;
  close(): Promise<void>;
}

/**
 * A store that also answers without a promise, as the in-process stores do: the simulator's hot
 * path calls `executeSync` when a store has it, and the answer is the one `execute` would give.
 */
export interface SyncStore extends Store {
  executeSync<C extends Command>(command: C): OutcomeOf<C>;
}

/** Whether `store` answers synchronously. */
export function isSyncStore(store: Store): store is SyncStore {
  return typeof (store as Partial<SyncStore>).executeSync === 'function';
}

export interface StoreOptions {
  readonly time: TimeSource | 'database';
  /**
   * The local clock of the controller making the current call, when a simulator drives the
   * store. A correct store never reads it (client clocks never decide expiry, §80); it exists
   * so that a mutant can demonstrate what goes wrong when a store does.
   */
  readonly callerClock?: TimeSource;
  /**
   * A PostgreSQL server the testbed provides, given when it runs the store interleaved
   * (`--interleave`): the store keeps its data there, and connects only through this string
   * (`postgresql://…`, with the schema to use as `search_path`). Each simulated process gets a
   * store of its own with its own string, leading to the same database through the testbed's
   * wire proxy, so that the testbed can choose the order in which the statements of concurrent
   * calls reach the server.
   */
  readonly connectionString?: string;
}

/** The default export of a `--adapter <module>`: an async factory returning the store. */
export type StoreFactory = (options: StoreOptions) => Promise<Store>;

/** Thrown when the outcome of a call is unknown: the connection broke after the request was sent. */
export class OutcomeUnknownError extends Error {
  constructor(
    readonly command: Command['kind'],
    override readonly cause: unknown,
  ) {
    super(`outcome of ${command} is unknown: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'OutcomeUnknownError';
  }
}

/**
 * Thrown by the testbed (not by stores) when a store can no longer be called: its process ended,
 * or a call did not settle within its time limit. Nothing is known of the call, and the run
 * cannot go on; it ends undecided (exit 3), naming the call, never as a finding about the store.
 */
export class StoreLostError extends Error {
  override name = 'StoreLostError';
}

/** A call into a store that did not settle within its time limit (backends/module/call-limit.ts). */
export class CallTimeoutError extends StoreLostError {
  constructor(
    readonly call: string,
    readonly limitMs: number,
  ) {
    super(`${call} did not finish within ${limitMs >= 1000 ? `${Math.round(limitMs / 1000)} s` : `${limitMs} ms`}`);
    this.name = 'CallTimeoutError';
  }
}

/** Thrown when the store could not be reached at all: the request was definitely not applied. */
export class StoreUnavailableError extends Error {
  constructor(
    readonly command: Command['kind'],
    override readonly cause: unknown,
  ) {
    super(`store unavailable for ${command}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'StoreUnavailableError';
  }
}
