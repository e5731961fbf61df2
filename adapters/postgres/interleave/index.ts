// Controlled interleaving on PostgreSQL (adapters/interleaving.ts): every session's store connects
// through a wire proxy of its own (wire-proxy.ts), and the statement gate (statement-gate.ts)
// decides which held statement reaches the server next. The main store connects directly.

import pg from 'pg';
import { insideFunctions, INTERLEAVE_WINDOW_MS, reportsStoreTime, type Chooser, type InterleavedStores, type InterleaveStrategy, type Interleaving, type SessionCall } from '../../interleaving.ts';
import type { Store, StoreFactory, TimeSource } from '../../port.ts';
import { createPostgresStore, type PostgresStoreOptions } from '../store.ts';
import { databaseTimeSql, setDatabaseTime } from './database-time.ts';
import { PointControl } from './point-control.ts';
import { CYCLE_PARAMETERS, mayBreakCycles, StatementGate } from './statement-gate.ts';
import { SessionProxy } from './wire-proxy.ts';

export { InterleavingStalledError } from './statement-gate.ts';

/** Opens a store of the run on `connectionString` with a pool of `poolSize` connections. */
export type OpenStore = (connectionString: string, poolSize: number) => Promise<Store>;

/** The server's address in a `postgresql://` URL; a socket path cannot be proxied. */
function upstreamOf(connectionString: string): { host: string; port: number; url: URL } {
  const url = new URL(connectionString);
  if (url.hostname === '' || url.searchParams.has('host')) throw new Error('controlled interleaving needs a server reached over TCP (host:port in the URL)');
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port === '' ? 5432 : Number(url.port), url };
}

export class InterleavingNotConnectedError extends Error {
  override readonly name = 'InterleavingNotConnectedError';
}

export interface OpenInterleavedOptions {
  /** One Inspect on every store before the first batch, so no batch pays for connecting or migrating (built-in stores). */
  readonly warmUp: boolean;
  /**
   * Database time (database-time.ts): the store time the schema's clock is set to before every
   * call, when the schema has one.
   */
  readonly clock?: TimeSource;
  /** Store time passes during a batch (adapters/interleaving.ts): the stores read the schema's clock after their locks. */
  readonly passingTime?: boolean;
  /**
   * The run's schema: its PL/pgSQL functions get a scheduling point before every statement
   * (function-points.ts, point-control.ts), so a batch interleaves inside them too.
   */
  readonly schema?: string;
}

export async function openInterleaved(connectionString: string, sessions: ReadonlyArray<string>, openStore: OpenStore, opened: OpenInterleavedOptions = { warmUp: true }): Promise<InterleavedStores> {
  const upstream = upstreamOf(connectionString);
  const probe = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
  probe.on('error', () => undefined);
  await probe.connect();
  const breaksCycles = await mayBreakCycles(probe);
  const proxies = new Map<string, SessionProxy>();
  const stores = new Map<string, Store>();
  let main: Store | null = null;
  let points: PointControl | null = null;
  const close = async (): Promise<void> => {
    // The proxies first: a call still held or blocked (after a stall) loses its connection, so
    // no store waits on it when it closes.
    await Promise.allSettled([...proxies.values()].map((proxy) => proxy.close()));
    await Promise.allSettled([...stores.values(), ...(main === null ? [] : [main])].map((store) => store.close()));
    await points?.close();
    await probe.end().catch(() => undefined);
  };
  try {
    points = opened.schema === undefined ? null : await PointControl.open(connectionString, opened.schema);
  } catch (error) {
    await close();
    throw error;
  }
  const gate = new StatementGate(probe, breaksCycles, points);
  try {
    for (const session of sessions) proxies.set(session, new SessionProxy(session, upstream, gate.changed, breaksCycles ? CYCLE_PARAMETERS : []));
    gate.attach(proxies);
    main = withClock(await openStore(connectionString, 2), probe, opened.clock);
    // The main store creates the schema; each session then opens its connection (the gate lets
    // everything pass outside a batch), so no batch pays for connecting or migrating.
    if (opened.warmUp) await main.execute({ kind: 'Inspect' });
    for (const [session, proxy] of proxies) {
      const url = new URL(upstream.url);
      url.hostname = '127.0.0.1';
      url.port = String(await proxy.listen());
      const store = await openStore(url.toString(), 1);
      stores.set(session, store);
      if (opened.warmUp) await store.execute({ kind: 'Inspect' });
    }
  } catch (error) {
    await close();
    throw error;
  }
  const passingTime = opened.clock !== undefined && opened.passingTime === true;
  const set = opened.clock === undefined ? () => Promise.resolve() : (ms: number) => setDatabaseTime(probe, ms);
  return {
    main: main!,
    passingTime,
    runBatch: async (calls: ReadonlyArray<SessionCall>, choose: Chooser | null, end: number) => {
      const times = passingTime ? [...new Set([...calls.map((call) => call.arrivedAt), end])].sort((a, b) => a - b) : [end];
      const reported = new Array<number | null>(calls.length).fill(null);
      const run = async (call: SessionCall, i: number): Promise<unknown> => {
        const store = storeOf(stores, call.session);
        const outcome: unknown = await store.execute(call.command);
        if (reportsStoreTime(store)) reported[i] = store.lastStoreTime();
        return outcome;
      };
      const result = await gate.runBatch(
        calls.map((call, i) => ({ session: call.session, arrivedAt: passingTime ? call.arrivedAt : end, run: () => run(call, i) })),
        choose,
        { times, set },
      );
      // A store that connects somewhere else is never held: interleaving it would prove nothing.
      if ([...proxies.values()].every((proxy) => proxy.lanes.length === 0)) {
        throw new InterleavingNotConnectedError('the store made no connection through the connection string it was given (options.connectionString): --interleave holds only statements that pass through it');
      }
      // A call that says which of the store times it ran through it decided with is explained at that one.
      const settled = result.settled.map((entry) => {
        const at = reported[entry.call];
        return at !== null && at !== undefined && entry.storeTimes.includes(at) ? { ...entry, storeTimes: [at] } : entry;
      });
      return { settled, schedule: result.schedule, ...(result.instrumented === undefined ? {} : { instrumented: result.instrumented }) };
    },
    close,
  };
}

/** The main store, setting the schema's clock before each of its calls (none to set: the store itself). */
function withClock(store: Store, probe: pg.Client, clock: TimeSource | undefined): Store {
  if (clock === undefined) return store;
  return new Proxy(store, {
    get(target, key) {
      if (key === 'execute') {
        return async (command: Parameters<Store['execute']>[0]) => {
          await setDatabaseTime(probe, clock.now());
          return target.execute(command);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function storeOf(stores: ReadonlyMap<string, Store>, session: string): Store {
  const store = stores.get(session);
  if (store === undefined) throw new Error(`no session named ${session}`);
  return store;
}

/**
 * Controlled interleaving of the PostgreSQL store (or a variant of it: `variant` replaces its
 * name or command bodies) on the server at `connectionString`, each run in a fresh schema.
 */
export function postgresInterleaving(
  strategy: InterleaveStrategy,
  connectionString: string,
  freshSchema: () => string,
  variant: Pick<PostgresStoreOptions, 'name' | 'commands' | 'functions'> = {},
): Interleaving {
  return {
    strategy,
    windowMs: INTERLEAVE_WINDOW_MS,
    withStrategy: (other) => postgresInterleaving(other, connectionString, freshSchema, variant),
    open: async (options, sessions) => {
      const schema = freshSchema();
      const points = insideFunctions(strategy) ? { schema } : {};
      if (options.time === 'database') return openInterleaved(connectionString, sessions, (url, poolSize) => createPostgresStore({ ...options, ...variant, connectionString: url, schema, poolSize }), { warmUp: true, ...points });
      // Database time: the stores read the schema's clock (after their locks), which the gate
      // moves on during a batch, so a call can see store time pass between its statements.
      const url = await freshSchemaUrl(connectionString, schema, true);
      const open: OpenStore = (session, poolSize) => createPostgresStore({ ...options, ...variant, time: 'database', databaseClock: true, connectionString: session, schema, poolSize });
      return openInterleaved(url, sessions, open, { warmUp: true, clock: options.time, passingTime: true, ...points });
    },
  };
}

/**
 * `connectionString` with every connection's `search_path` set to `schema` (libpq `options`);
 * `pg_catalog` named after it lets the schema's functions shadow PostgreSQL's own.
 */
export function withSearchPath(connectionString: string, schema: string, shadowCatalog = false): string {
  const url = new URL(connectionString);
  url.searchParams.set('options', `-c search_path=${schema}${shadowCatalog ? ',pg_catalog' : ''}`);
  return url.toString();
}

/**
 * A fresh schema on the server at `connectionString`, and the string that makes it every
 * connection's `search_path`. With `databaseTime` the schema gets the testbed's clock
 * (database-time.ts), which shadows PostgreSQL's time functions.
 */
export async function freshSchemaUrl(connectionString: string, schema: string, databaseTime = false): Promise<string> {
  const admin = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    if (databaseTime) await admin.query(databaseTimeSql(schema));
  } finally {
    await admin.end().catch(() => undefined);
  }
  return withSearchPath(connectionString, schema, databaseTime);
}

/**
 * Controlled interleaving of a user's store that keeps its data where it is told
 * (`StoreOptions.connectionString`): each run gets a fresh schema on the server, made the
 * `search_path` of every connection; the store is opened once per session with the string of that
 * session's proxy, and once more, directly, as the main store. Unless the run is on the server's
 * own clock, the schema reads the run's store time (database-time.ts).
 */
export function connectingInterleaving(strategy: InterleaveStrategy, connectionString: string, freshSchema: () => string, factory: StoreFactory): Interleaving {
  return {
    strategy,
    windowMs: INTERLEAVE_WINDOW_MS,
    withStrategy: (other) => connectingInterleaving(other, connectionString, freshSchema, factory),
    open: async (options, sessions) => {
      const clock = options.time === 'database' ? undefined : options.time;
      const schema = freshSchema();
      const url = await freshSchemaUrl(connectionString, schema, clock !== undefined);
      return openInterleaved(url, sessions, (session) => factory({ ...options, connectionString: session }), { warmUp: false, ...(insideFunctions(strategy) ? { schema } : {}), ...(clock === undefined ? {} : { clock }) });
    },
  };
}
