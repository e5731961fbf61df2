// Resolution of `--adapter`: the memory store, the PostgreSQL store on an embedded server (or
// DATABASE_URL), a built-in mutant (`mutant:<name>`), or a user's module whose default export is
// an async factory returning a store. Every bad choice is a UsageError (exit 2); a PostgreSQL
// server that cannot be started or reached is this machine's problem, an UndecidedError (exit 3),
// and so is a user's store whose factory throws or never answers: each says so in one line.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { backendChoices, backendOf, type BackendKind } from '../adapters/backends.ts';
import { inProcessAdapter } from '../mutants/in-process.ts';
import { MUTANTS } from '../mutants/index.ts';
import type { Store, StoreFactory, StoreOptions } from '../adapters/port.ts';
import type { InterleaveStrategy } from '../adapters/interleaving.ts';
import type { PostgresServer } from '../adapters/postgres/harness.ts';
import { UndecidedError, UsageError } from './errors.ts';
import type { ResolvedAdapter } from './resolved-adapter.ts';
import { userStore, whyNotLoaded } from './user-store.ts';
import { asEsModule, loaderFor, NO_LOADER_CODES, noLoaderLine } from './typescript-modules.ts';

export type { ResolvedAdapter } from './resolved-adapter.ts';

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
  return RESOLVERS[backend.kind](spec, interleave);
}

/** The memory store or a built-in mutant. */
function resolveInProcess(spec: string): ResolvedAdapter {
  const adapter = inProcessAdapter(spec);
  if (adapter === null) {
    throw new UsageError(`unknown mutant '${spec.slice('mutant:'.length)}'; known: ${MUTANTS.map((m) => m.name).join(', ')}`);
  }
  return { ...adapter, deterministic: true, close: async () => {} };
}

/** The PostgreSQL store, or one of its SQL race mutants (`postgres-mutant:<name>`, mutants/sql/). */
async function resolvePostgres(spec: string, interleave: InterleaveStrategy | undefined): Promise<ResolvedAdapter> {
  const { findPostgresMutant, mutantStoreOptions, POSTGRES_MUTANT_PREFIX, POSTGRES_MUTANTS } = await import('../mutants/sql/index.ts');
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
  // Without tsx in reach the import is still tried: a loader of the user's own may be active.
  const loader = await loaderFor(file);
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    if (!loader && NO_LOADER_CODES.has(String((error as { code?: unknown }).code))) throw new UndecidedError(noLoaderLine(spec));
    throw new UsageError(`cannot load adapter module ${spec}: ${await whyNotLoaded(file, spec, error)}`);
  }
  loaded = asEsModule(loaded);
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
