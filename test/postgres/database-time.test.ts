// Database time (adapters/postgres/interleave/database-time.ts): a schema the testbed makes for a
// user's SQL store reads the run's store time from `testbed_now()` and from PostgreSQL's own time
// functions, which the schema shadows; a schema made without it keeps the server's clock.

import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { freshSchemaUrl } from '../../adapters/postgres/interleave/index.ts';
import { setDatabaseTime } from '../../adapters/postgres/interleave/database-time.ts';
import { usePostgres } from './fixture.ts';

const server = usePostgres();

async function connected<T>(url: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

const READ = `SELECT testbed_now()::text AS ms,
  floor(extract(epoch FROM now()) * 1000)::text AS now,
  floor(extract(epoch FROM clock_timestamp()) * 1000)::text AS clock,
  floor(extract(epoch FROM statement_timestamp()) * 1000)::text AS statement,
  floor(extract(epoch FROM transaction_timestamp()) * 1000)::text AS tx`;

describe('database time', () => {
  test('every connection of the schema reads the time the testbed set, through testbed_now() and the shadowed time functions', async () => {
    const url = await freshSchemaUrl(server.server().connectionString, server.freshSchema(), true);
    await connected(url, (setter) => setDatabaseTime(setter, 1_234_567));
    const read = await connected(url, async (store) => (await store.query(READ)).rows[0] as Record<string, string>);
    expect(read).toEqual({ ms: '1234567', now: '1234567', clock: '1234567', statement: '1234567', tx: '1234567' });
    // A later setting is seen by a connection already open (one row, read per statement).
    await connected(url, async (store) => {
      await connected(url, (setter) => setDatabaseTime(setter, 2_000_001));
      expect(((await store.query(READ)).rows[0] as Record<string, string>).now).toBe('2000001');
    });
  });

  test('a schema made without it keeps the server clock', async () => {
    const url = await freshSchemaUrl(server.server().connectionString, server.freshSchema());
    const now = await connected(url, async (store) => Number(((await store.query('SELECT floor(extract(epoch FROM now()) * 1000) AS now')).rows[0] as { now: string }).now));
    expect(Math.abs(now - Date.now())).toBeLessThan(60_000);
  });
});
