// A user's store module: its default export is an async factory returning a store. Its
// determinism is what the store declares; it can be interleaved when it keeps its data where it is
// told (StoreOptions.connectionString). A module path is matched last.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { UndecidedError, UsageError } from '../../adapters/errors.ts';
import type { InterleaveStrategy } from '../../adapters/interleaving.ts';
import type { StoreFactory } from '../../adapters/port.ts';
import type { Backend } from '../backend.ts';
import { schemasOf, serverOrFail } from '../postgres/server.ts';
import type { ResolvedAdapter } from '../resolved-adapter.ts';
import { asEsModule, loaderFor, NO_LOADER_CODES, noLoaderLine } from './typescript-modules.ts';
import { userStore, whyNotLoaded } from './user-store.ts';

const isModulePath = (spec: string): boolean => spec.startsWith('.') || spec.startsWith('/') || /\.(ts|mts|js|mjs)$/.test(spec);

export const storeModule: Backend = {
  kind: 'module',
  syntax: '<path to a store module>',
  matches: isModulePath,
  replays: 'declared',
  interleavable: true,
  realFaults: false,
  databaseClock: false,
  gateStage: null,
  userCode: { kind: 'import', what: (spec) => spec },
  open: openModule,
};

async function openModule(spec: string, interleave: InterleaveStrategy | undefined): Promise<ResolvedAdapter> {
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
    const { connectingInterleaving, freshSchemaUrl } = await import('../../adapters/postgres/interleave/index.ts');
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
