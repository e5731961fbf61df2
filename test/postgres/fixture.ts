// One embedded PostgreSQL server per test file (or DATABASE_URL), and fresh stores on it: each
// store gets its own schema, so tests in a file never see each other's rows.

import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { Store, StoreOptions } from '../../adapters/port.ts';
import { startPostgres, type PostgresServer } from '../../adapters/postgres/harness.ts';
import { createPostgresStore, type PostgresStoreOptions } from '../../adapters/postgres/store.ts';

export interface PostgresFixture {
  server(): PostgresServer;
  store(options: StoreOptions & Partial<PostgresStoreOptions>): Promise<Store>;
  /** A schema name not used before in this process. */
  freshSchema(): string;
}

let schemaCounter = 0;

export function usePostgres(): PostgresFixture {
  let server: PostgresServer | undefined;
  const schemas: string[] = [];
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    // A throwaway embedded server takes its schemas with it; a shared one (DATABASE_URL) must not keep them.
    if (server && server.kind !== 'embedded' && schemas.length > 0) {
      const client = new pg.Client(server.connectionString);
      await client.connect();
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
    await server?.stop();
  });
  const fixture: PostgresFixture = {
    server: () => {
      if (!server) throw new Error('the server is started in beforeAll');
      return server;
    },
    freshSchema: () => {
      const schema = `t${process.pid}_${++schemaCounter}`;
      schemas.push(schema);
      return schema;
    },
    store: (options) =>
      createPostgresStore({ connectionString: fixture.server().connectionString, schema: fixture.freshSchema(), ...options }),
  };
  return fixture;
}
