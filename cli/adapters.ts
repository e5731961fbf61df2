// Resolution of `--adapter`: the memory store, the PostgreSQL store on an embedded server (or
// DATABASE_URL), a built-in mutant (`mutant:<name>`), or a user's module whose default export is
// an async factory returning a store. Every bad choice is a UsageError (exit 2); a PostgreSQL
// server that cannot be started or reached is this machine's problem, an UndecidedError (exit 3),
// and so is a user's store whose factory throws or never answers: each says so in one line.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { backendChoices, backendOf, type Backend, type BackendKind } from '../adapters/backends.ts';
import { inProcessAdapter } from '../adapters/in-process.ts';
import { MUTANTS } from '../adapters/mutants/index.ts';
import { readFileSync } from 'node:fs';
import { CallTimeoutError, isSyncStore, StoreLostError, OutcomeUnknownError, type CallContext, type LifecycleEvent, StoreUnavailableError, type Store, type StoreFactory, type StoreOptions, type TimeSource } from '../adapters/port.ts';
import type { Command } from '../model/commands.ts';
import type { InterleaveStrategy, Interleaving } from '../adapters/interleaving.ts';
import type { PostgresServer } from '../adapters/postgres/harness.ts';
import type { ControllerPolicy } from '../model/controller-policy.ts';
import type { StoreChoice } from '../sim/run.ts';
import { bounded, firstLine, UndecidedError, UsageError } from './errors.ts';
import { callTimeoutMs, limitCall } from './call-limit.ts';
import { describeLifecycle, describeStoreCall, isStoreEscape } from '../adapters/store-escape.ts';
import { storeOpened, throwPending, watchCall } from './store-escapes.ts';

export interface ResolvedAdapter {
  readonly name: string;
  readonly store: StoreChoice;
  readonly policy?: Partial<ControllerPolicy>;
  /** A failing run on it may be shrunk: built-in in-process stores, and user stores that declare `capabilities.deterministic`. */
  readonly deterministic?: boolean;
  /**
   * PostgreSQL stores only: `count` stores over one fresh schema, each on a connection of its own
   * (the concurrent sessions of `testbed stress`).
   */
  readonly sessions?: (options: StoreOptions, count: number) => Promise<Store[]>;
  /** Set by `--interleave`: every run on this adapter is interleaved so (adapters/interleaving.ts). */
  readonly interleave?: Interleaving;
  /** What the backend can do (adapters/backends.ts); set by resolveAdapter. */
  readonly backend?: Backend;
  close(): Promise<void>;
}

const STORE_METHODS = ['execute', 'close'] as const;

/** A user's store: a module path or `exec:<command>` (a backend whose determinism the store declares). */
export function isUserStore(spec: string): boolean {
  return backendOf(spec)?.replays === 'declared';
}

export interface ResolveOptions {
  /** Run every store call interleaved with this strategy (PostgreSQL stores and store modules that connect where told). */
  readonly interleave?: InterleaveStrategy;
}

/** How each backend of adapters/backends.ts is opened: the compiler asks for one per kind. */
const RESOLVERS: Readonly<Record<BackendKind, (spec: string, interleave: InterleaveStrategy | undefined) => Promise<ResolvedAdapter>>> = {
  memory: async (spec) => resolveInProcess(spec),
  mutant: async (spec) => resolveInProcess(spec),
  postgres: resolvePostgres,
  'postgres-mutant': resolvePostgres,
  exec: async (spec) => resolveExec(spec),
  module: resolveModule,
};

export async function resolveAdapter(spec: string, options: ResolveOptions = {}): Promise<ResolvedAdapter> {
  const interleave = options.interleave;
  const backend = backendOf(spec);
  if (backend === undefined) throw new UsageError(`unknown adapter '${spec}': expected ${backendChoices()}`);
  if (interleave !== undefined && !backend.interleavable) {
    const flag = interleave === 'free' ? '--concurrency free' : '--interleave';
    throw new UsageError(`${flag} needs a store on PostgreSQL (${backendChoices((b) => b.interleavable)} that connects to options.connectionString), not ${spec}`);
  }
  const resolved = await RESOLVERS[backend.kind](spec, interleave);
  return { ...resolved, backend };
}

/** The memory store or a built-in mutant. */
function resolveInProcess(spec: string): ResolvedAdapter {
  const adapter = inProcessAdapter(spec);
  if (adapter === null) {
    throw new UsageError(`unknown mutant '${spec.slice('mutant:'.length)}'; known: ${MUTANTS.map((m) => m.name).join(', ')}`);
  }
  return { ...adapter, deterministic: true, close: async () => {} };
}

/** The PostgreSQL store, or one of its SQL race mutants (`postgres-mutant:<name>`, adapters/postgres/mutants/). */
async function resolvePostgres(spec: string, interleave: InterleaveStrategy | undefined): Promise<ResolvedAdapter> {
  const { findPostgresMutant, mutantStoreOptions, POSTGRES_MUTANT_PREFIX, POSTGRES_MUTANTS } = await import('../adapters/postgres/mutants/index.ts');
  const mutant = backendOf(spec)?.kind === 'postgres' ? undefined : findPostgresMutant(spec);
  if (backendOf(spec)?.kind !== 'postgres' && mutant === undefined) {
    throw new UsageError(`unknown PostgreSQL mutant '${spec.slice(POSTGRES_MUTANT_PREFIX.length)}'; known: ${POSTGRES_MUTANTS.map((m) => m.name).join(', ')}`);
  }
  const variant = mutant === undefined ? { name: spec } : mutantStoreOptions(mutant);
  const { createPostgresStore } = await import('../adapters/postgres/store.ts');
  const server = await serverOrFail();
  const freshSchema = schemasOf(server);
  const factory: StoreFactory = (options: StoreOptions) =>
    createPostgresStore({ ...options, ...variant, connectionString: server.connectionString, schema: freshSchema(), poolSize: 4 });
  const sessions = (options: StoreOptions, count: number): Promise<Store[]> => {
    const schema = freshSchema();
    const open = () => createPostgresStore({ ...options, ...variant, connectionString: server.connectionString, schema, poolSize: 1 });
    return Promise.all(Array.from({ length: count }, open));
  };
  const { postgresInterleaving } = await import('../adapters/postgres/interleave/index.ts');
  return {
    name: spec,
    store: { name: spec, factory },
    sessions,
    ...(interleave === undefined ? {} : { interleave: postgresInterleaving(interleave, server.connectionString, freshSchema, variant) }),
    close: () => server.stop(),
  };
}

/**
 * Names of fresh schemas on `server`, one per run, so runs never see each other's rows; on a
 * shared server they are named after the server's own schema, and server.stop() drops them all.
 */
function schemasOf(server: PostgresServer): () => string {
  let runs = 0;
  const base = server.schema === 'public' ? 'run' : `${server.schema}_run`;
  return () => `${base}_${++runs}`;
}

/**
 * A PostgreSQL server for the testbed's own use: DATABASE_URL, else an embedded one. A bad URL is
 * bad input (exit 2); a server that cannot be started or reached is this machine's problem (exit 3).
 */
async function serverOrFail(): Promise<PostgresServer> {
  const { ServerUrlError, startPostgres } = await import('../adapters/postgres/harness.ts');
  const { ServerEnvironmentError } = await import('../adapters/postgres/local-server.ts');
  try {
    return await startPostgres();
  } catch (error) {
    if (error instanceof ServerUrlError) throw new UsageError(error.message);
    const cause = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
    if (process.env.DATABASE_URL) throw new UndecidedError(`cannot reach the server at DATABASE_URL: ${cause}; check that it runs and accepts connections`);
    // An environment error says what to do itself; anything else gets the way around it.
    const todo = error instanceof ServerEnvironmentError ? '' : '; set DATABASE_URL to a server of your own to use it instead';
    throw new UndecidedError(`cannot start an embedded PostgreSQL server: ${cause}${todo}`);
  }
}

async function resolveModule(spec: string, interleave: InterleaveStrategy | undefined): Promise<ResolvedAdapter> {
  const file = path.resolve(spec);
  if (!existsSync(file)) throw new UsageError(`adapter module not found: ${spec}`);
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    throw new UsageError(`cannot load adapter module ${spec}: ${await whyNotLoaded(file, spec, error)}`);
  }
  if (typeof loaded.default !== 'function') {
    throw new UsageError(`adapter module ${spec} has no default export that is a store factory (an async function returning a store)`);
  }
  if (interleave === undefined) return userStore(spec, loaded.default as StoreFactory);
  return interleavedModule(spec, loaded.default as StoreFactory, interleave);
}

/**
 * A store module run interleaved: it keeps its data where it is told (`StoreOptions.connectionString`).
 * The server is started first, the probe gets a schema of its own on it, and each run a fresh one.
 */
async function interleavedModule(spec: string, userFactory: StoreFactory, strategy: InterleaveStrategy): Promise<ResolvedAdapter> {
  const server = await serverOrFail();
  try {
    const { connectingInterleaving, freshSchemaUrl } = await import('../adapters/postgres/interleave/index.ts');
    const fresh = schemasOf(server);
    const probeUrl = await freshSchemaUrl(server.connectionString, fresh());
    const adapter = await userStore(spec, userFactory, probeUrl);
    return {
      ...adapter,
      interleave: connectingInterleaving(strategy, server.connectionString, fresh, adapter.store.factory),
      close: async () => {
        await adapter.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** A store in another language: a command speaking JSON lines (adapters/exec-store.ts). */
async function resolveExec(spec: string): Promise<ResolvedAdapter> {
  const command = spec.slice('exec:'.length).trim();
  if (command === '') throw new UsageError('exec: needs a command, for example exec:"python3 examples/exec-store/lease_store.py"');
  const { createExecStore } = await import('../adapters/exec-store.ts');
  return userStore(spec, (options) => createExecStore({ ...options, command, name: spec }));
}

/**
 * A user's store, module or process: probed once up front, so a store that does not implement the
 * port is bad input before any run starts, and a factory that fails or never answers is said to
 * before any work; each call then goes through `checkedStore`. The probe is not thrown away: it
 * is the store of the first run that asks for one on the same terms (its time sources forward to
 * that run's), so a store that is costly to open is opened once per run, not once more up front.
 */
async function userStore(spec: string, userFactory: StoreFactory, probeConnection?: string): Promise<ResolvedAdapter> {
  const limitMs = callTimeoutMs();
  const open = async (options: StoreOptions): Promise<Store> => {
    let store: unknown;
    try {
      store = await limitCall(`the store factory of ${spec}`, () => userFactory(options), limitMs);
    } catch (error) {
      if (error instanceof CallTimeoutError) throw new UndecidedError(error.message, { cause: error });
      throw new UndecidedError(`the store factory of ${spec} failed: ${firstLine(error)}`, { cause: error });
    }
    return checkedStore(spec, checkStore(spec, store), limitMs);
  };
  const forward = forwardingTime();
  const probeOptions: StoreOptions = { time: forward.time, callerClock: forward.callerClock, ...(probeConnection === undefined ? {} : { connectionString: probeConnection }) };
  let spare: Store | null = await open(probeOptions);
  const deterministic = spare.capabilities?.deterministic === true;
  const factory: StoreFactory = async (options) => {
    if (spare === null || options.time === 'database' || options.connectionString !== undefined) return open(options);
    const store = spare;
    spare = null;
    forward.bind(options.time, options.callerClock);
    return store;
  };
  // The commands close the adapter in `finally`: a store that no run used and that fails to close
  // is said in one line on stderr, and does not replace the error a command may be ending with.
  const close = async (): Promise<void> => {
    if (spare === null) return;
    const store = spare;
    spare = null;
    try {
      await store.close();
    } catch (error) {
      process.stderr.write(`testbed: warning: adapter ${spec}: close() of a store no run used failed: ${firstLine(error)}\n`);
    }
  };
  // A probe opened on a connection of its own serves no run: every run gets a fresh schema.
  if (probeConnection !== undefined) await close();
  return { name: spec, store: { name: spec, factory }, deterministic, close };
}

/** Time sources that read the ones bound later (virtual time 0 until then). */
function forwardingTime(): { time: TimeSource; callerClock: TimeSource; bind(time: TimeSource, callerClock: TimeSource | undefined): void } {
  let time: TimeSource = { now: () => 0 };
  let caller: TimeSource | undefined;
  return {
    time: { now: () => time.now() },
    callerClock: { now: () => (caller ?? time).now() },
    bind(t, c) {
      time = t;
      caller = c;
    },
  };
}

/**
 * Why a module did not load, in one line with the place when it is a syntax error. Node names the
 * place of a JavaScript syntax error in its stack; a TypeScript loader may report something else
 * entirely (tsx: "Cannot require() ES Module … in a cycle"), so the source is parsed again with
 * esbuild, which tsx brings along, for the line and column.
 */
async function whyNotLoaded(file: string, spec: string, error: unknown): Promise<string> {
  const located = await syntaxErrorOf(file, spec);
  if (located !== null) return located;
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  const place = /^(file:\/\/\S+?):(\d+)$/m.exec(stack);
  if (error instanceof SyntaxError && place !== null) return `${spec}:${place[2]}: ${firstLine(error)}`;
  return firstLine(error);
}

async function syntaxErrorOf(file: string, spec: string): Promise<string | null> {
  let esbuild: { transform(code: string, options: { loader: string; format: string; sourcefile: string }): Promise<unknown> };
  try {
    esbuild = (await import('esbuild' as string)) as typeof esbuild;
  } catch {
    return null;
  }
  const extension = path.extname(file).slice(1);
  const loader = extension === 'ts' || extension === 'mts' || extension === 'cts' ? 'ts' : extension === 'tsx' || extension === 'jsx' ? extension : 'js';
  try {
    await esbuild.transform(readFileSync(file, 'utf8'), { loader, format: 'esm', sourcefile: spec });
    return null;
  } catch (error) {
    const first = (error as { errors?: ReadonlyArray<{ text: string; location: { line: number; column: number } | null }> }).errors?.[0];
    if (first === undefined) return null;
    return first.location === null ? `syntax error: ${first.text}` : `syntax error at ${spec}:${first.location.line}:${first.location.column + 1}: ${first.text}`;
  }
}

/**
 * A user's store, as the simulator calls it: an error it throws (other than the two the port
 * defines, unknown outcome and unavailable) names the store and the command, and every call but
 * the synchronous executeSync has the time limit of call-limit.ts, past which it rejects with a
 * CallTimeoutError naming it. An error that escapes the store meanwhile (store-escapes.ts) is
 * thrown from the call in flight, or the next execute. Everything else is the store's own.
 */
function checkedStore(spec: string, inner: Store, limitMs: number): Store {
  const named = (command: Command, error: unknown): unknown =>
    error instanceof OutcomeUnknownError || error instanceof StoreUnavailableError || error instanceof StoreLostError || isStoreEscape(error)
      ? error
      : new Error(`store ${spec} threw on ${command.kind}: ${firstLine(error)}`, { cause: error });
  const execute = async (command: Command, call?: CallContext): Promise<unknown> => {
    try {
      const label = `store ${spec} on ${command.kind}`;
      return await watchCall(describeStoreCall(command.kind, call), true, () => limitCall<unknown>(label, () => inner.execute(command, call), limitMs));
    } catch (error) {
      throw named(command, error);
    }
  };
  // The other calls, each within the same limit (a store that keeps the process alive cannot hang the command).
  const limited = (name: 'lifecycle' | 'snapshot' | 'restore' | 'close'): ((...args: unknown[]) => Promise<unknown>) | undefined => {
    const method = (inner as unknown as Record<string, unknown>)[name];
    if (typeof method !== 'function') return undefined;
    const call = (args: unknown[]): string => (name === 'lifecycle' ? describeLifecycle(args[0] as LifecycleEvent) : `${name}()`);
    return (...args) => watchCall(call(args), false, () => limitCall(`${name}() of store ${spec}`, () => (method as (...a: unknown[]) => unknown).apply(inner, args), limitMs));
  };
  const closed = storeOpened();
  const limitedClose = limited('close')!;
  // An escape no execute was left to throw (after the last call) is said by close: the run cannot pass over it.
  const close = async (): Promise<void> => {
    try {
      await limitedClose();
    } finally {
      closed();
    }
    throwPending();
  };
  const calls = { lifecycle: limited('lifecycle'), snapshot: limited('snapshot'), restore: limited('restore'), close };
  const executeSync = isSyncStore(inner)
    ? (command: Command): unknown => {
        try {
          return inner.executeSync(command);
        } catch (error) {
          throw named(command, error);
        }
      }
    : undefined;
  return new Proxy(inner, {
    get(target, key) {
      if (key === 'execute') return execute;
      if (key === 'executeSync') return executeSync;
      if (typeof key === 'string' && key in calls) return calls[key as keyof typeof calls];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A module's store must implement the port; anything else is bad input, not a bug of ours. */
function checkStore(spec: string, store: unknown): Store {
  if (typeof store !== 'object' || store === null) throw new UsageError(`adapter module ${spec}: the factory did not return a store object`);
  for (const method of STORE_METHODS) {
    if (typeof (store as Record<string, unknown>)[method] !== 'function') {
      throw new UsageError(`adapter module ${spec} does not implement the store port: missing ${method}()`);
    }
  }
  const fencing = (store as Store).capabilities?.fencing;
  if (fencing !== undefined && fencing !== 'integer' && fencing !== 'opaque' && fencing !== 'none') {
    throw new UsageError(`adapter module ${spec}: capabilities.fencing is ${JSON.stringify(fencing)}, expected 'integer', 'opaque' or 'none'`);
  }
  return store as Store;
}
