// Opening the PostgreSQL store, or a variant of its SQL (a race mutant), on a fresh schema per
// run: its factory, its concurrent sessions for `stress`, and its interleaving when asked.

import type { InterleaveStrategy } from '../../adapters/interleaving.ts';
import type { Store, StoreFactory, StoreOptions } from '../../adapters/port.ts';
import type { PostgresStoreOptions } from '../../adapters/postgres/store.ts';
import type { ResolvedAdapter } from '../resolved-adapter.ts';
import { schemasOf, serverOrFail } from './server.ts';

/** What a variant changes in the store's options: its name, and a mutant's patched SQL. */
export type StoreVariant = Pick<PostgresStoreOptions, 'name' | 'commands' | 'functions'>;

export async function openPostgres(spec: string, variant: StoreVariant, interleave: InterleaveStrategy | undefined): Promise<ResolvedAdapter> {
  const { createPostgresStore } = await import('../../adapters/postgres/store.ts');
  const server = await serverOrFail();
  const freshSchema = schemasOf(server);
  const factory: StoreFactory = (options: StoreOptions) =>
    createPostgresStore({ ...options, ...variant, connectionString: server.connectionString, schema: freshSchema(), poolSize: 4 });
  const sessions = (options: StoreOptions, count: number): Promise<Store[]> => {
    const schema = freshSchema();
    const open = () => createPostgresStore({ ...options, ...variant, connectionString: server.connectionString, schema, poolSize: 1 });
    return Promise.all(Array.from({ length: count }, open));
  };
  const { postgresInterleaving } = await import('../../adapters/postgres/interleave/index.ts');
  return {
    name: spec,
    store: { name: spec, factory },
    sessions,
    ...(interleave === undefined ? {} : { interleave: postgresInterleaving(interleave, server.connectionString, freshSchema, variant) }),
    close: () => server.stop(),
  };
}
