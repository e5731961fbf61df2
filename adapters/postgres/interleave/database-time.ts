// Database time for a user's SQL store (docs/ARCHITECTURE.md "Controlled interleaving"): when the testbed
// hands a store its database (`--interleave`, `--concurrency free`), the store's schema gets a
// clock that reads the simulator's virtual time, so expiry decided inside SQL (a library's own
// `now()`, a stored function) runs on the same time as everything else in the run.
//
// - `testbed_now()` returns store time in integer milliseconds: what `options.time.now()` gives.
// - `now()`, `transaction_timestamp()`, `statement_timestamp()` and `clock_timestamp()` of the
//   schema shadow PostgreSQL's own: every connection's `search_path` is `<schema>, pg_catalog`,
//   so an unqualified call finds these first. They return `testbed_now()` as a timestamptz.
//   (`CURRENT_TIMESTAMP` and `LOCALTIMESTAMP` are keywords bound to pg_catalog and cannot be
//   shadowed; a store reading time that way keeps the server's clock.)
//
// The clock is one row, set by the testbed on a connection of its own before every call it
// makes. For a store module, store time stands still during a call and during a batch of calls
// that run at once; for the built-in stores it may move on inside a batch, between statements
// (adapters/interleaving.ts `passingTime`). The functions are VOLATILE, so each reads the row as
// it is when it is evaluated: a clock read in a statement that waited for a lock is the time
// after the wait, as PostgreSQL's own clock_timestamp() would be.
//
// A read also leaves the value it returned in the session setting `testbed.read`
// (CLOCK_READ_SETTING) when that is empty, so a statement that empties it first can say which
// store time it decided with: the built-in store's one-statement commands empty it and read it
// back in the same statement (fast-path.ts).

import type pg from 'pg';

/** The session setting that holds the store time the session's clock last returned. */
export const CLOCK_READ_SETTING = 'testbed.read';

/** The clock table and the functions, created in `schema` (a quoted identifier is not needed: schemas are testbed-made). */
export function databaseTimeSql(schema: string): string {
  // The first read since the setting was emptied is kept: a command decides with its first read
  // (later reads stamp its log rows).
  const kept = `coalesce(nullif(pg_catalog.current_setting('${CLOCK_READ_SETTING}', true), ''), now_ms::text)`;
  const read = `SELECT now_ms FROM (SELECT now_ms, pg_catalog.set_config('${CLOCK_READ_SETTING}', ${kept}, false) FROM ${schema}.testbed_clock) AS clock`;
  const shadow = (name: string): string => `CREATE FUNCTION ${schema}.${name}() RETURNS timestamptz LANGUAGE sql VOLATILE AS $$ SELECT pg_catalog.to_timestamp(${schema}.testbed_now() / 1000.0) $$;`;
  return `
    CREATE TABLE ${schema}.testbed_clock (now_ms bigint NOT NULL);
    INSERT INTO ${schema}.testbed_clock VALUES (0);
    CREATE FUNCTION ${schema}.testbed_now() RETURNS bigint LANGUAGE sql VOLATILE AS $$ ${read} $$;
    ${['now', 'transaction_timestamp', 'statement_timestamp', 'clock_timestamp'].map(shadow).join('\n    ')}`;
}

/** Sets the store time every connection of the schema reads (on a connection whose `search_path` is the schema). */
export async function setDatabaseTime(client: pg.Client, nowMs: number): Promise<void> {
  await client.query('UPDATE testbed_clock SET now_ms = $1', [nowMs]);
}
