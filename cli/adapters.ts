// Resolution of `--adapter`: the memory store, the PostgreSQL store on an embedded server (or
// DATABASE_URL), a built-in mutant (`mutant:<name>`), or a user's module whose default export is
// an async factory returning a store. Every bad choice is a UsageError (exit 2); a PostgreSQL
// server that cannot be started or reached is this machine's problem, an UndecidedError (exit 3).

import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inProcessAdapter } from '../adapters/in-process.ts';
import { MUTANTS } from '../adapters/mutants/index.ts';
import type { Store, StoreFactory, StoreOptions } from '../adapters/port.ts';
import type { ControllerPolicy } from '../sim/controller-policy.ts';
import type { StoreChoice } from '../sim/run.ts';
import { UndecidedError, UsageError } from './errors.ts';

export interface ResolvedAdapter {
  readonly name: string;
  readonly store: StoreChoice;
  readonly policy?: Partial<ControllerPolicy>;
  close(): Promise<void>;
}

const STORE_METHODS = ['execute', 'close'] as const;

function isModulePath(spec: string): boolean {
  return spec.startsWith('.') || spec.startsWith('/') || /\.(ts|mts|js|mjs)$/.test(spec);
}

export async function resolveAdapter(spec: string): Promise<ResolvedAdapter> {
  if (spec === 'memory' || spec.startsWith('mutant:')) return resolveInProcess(spec);
  if (spec === 'postgres') return resolvePostgres();
  if (isModulePath(spec)) return resolveModule(spec);
  throw new UsageError(`unknown adapter '${spec}': expected memory, postgres, mutant:<name> or a path to a store module`);
}

/** The memory store or a built-in mutant. */
function resolveInProcess(spec: string): ResolvedAdapter {
  const adapter = inProcessAdapter(spec);
  if (adapter === null) {
    throw new UsageError(`unknown mutant '${spec.slice('mutant:'.length)}'; known: ${MUTANTS.map((m) => m.name).join(', ')}`);
  }
  return { ...adapter, close: async () => {} };
}

async function resolvePostgres(): Promise<ResolvedAdapter> {
  const { startPostgres } = await import('../adapters/postgres/harness.ts');
  const { ServerEnvironmentError } = await import('../adapters/postgres/local-server.ts');
  const { createPostgresStore } = await import('../adapters/postgres/store.ts');
  let server;
  try {
    server = await startPostgres();
  } catch (error) {
    const cause = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
    if (process.env.DATABASE_URL) throw new UndecidedError(`cannot reach the server at DATABASE_URL: ${cause}; check that it runs and accepts connections`);
    // An environment error says what to do itself; anything else gets the way around it.
    const todo = error instanceof ServerEnvironmentError ? '' : '; set DATABASE_URL to a server of your own to use it instead';
    throw new UndecidedError(`cannot start an embedded PostgreSQL server: ${cause}${todo}`);
  }
  // Every run gets a fresh schema on the same server, so runs never see each other's rows.
  let runs = 0;
  const base = server.schema === 'public' ? 'run' : `${server.schema}_run`;
  const factory: StoreFactory = (options: StoreOptions) =>
    createPostgresStore({ ...options, connectionString: server.connectionString, schema: `${base}_${++runs}`, poolSize: 4 });
  return {
    name: 'postgres',
    store: { name: 'postgres', factory },
    close: () => server.stop(),
  };
}

async function resolveModule(spec: string): Promise<ResolvedAdapter> {
  const file = path.resolve(spec);
  if (!existsSync(file)) throw new UsageError(`adapter module not found: ${spec}`);
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    throw new UsageError(`cannot load adapter module ${spec}: ${error instanceof Error ? error.message : String(error)}`.split('\n')[0]!);
  }
  if (typeof loaded.default !== 'function') {
    throw new UsageError(`adapter module ${spec} has no default export that is a store factory (an async function returning a store)`);
  }
  const userFactory = loaded.default as StoreFactory;
  const factory: StoreFactory = async (options) => checkStore(spec, await userFactory(options));
  // Probe once up front, so a module that does not implement the port is bad input before any run starts.
  await (await factory({ time: { now: () => 0 } })).close();
  const name = spec;
  return { name, store: { name, factory }, close: async () => {} };
}

/** A module's store must implement the port; anything else is bad input, not a bug of ours. */
function checkStore(spec: string, store: unknown): Store {
  if (typeof store !== 'object' || store === null) throw new UsageError(`adapter module ${spec}: the factory did not return a store object`);
  for (const method of STORE_METHODS) {
    if (typeof (store as Record<string, unknown>)[method] !== 'function') {
      throw new UsageError(`adapter module ${spec} does not implement the store port: missing ${method}()`);
    }
  }
  return store as Store;
}
