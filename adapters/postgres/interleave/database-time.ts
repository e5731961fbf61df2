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
// A read also leaves `<statement_timestamp()>|<ms>` in the session setting `testbed.read`
// (CLOCK_READ_SETTING), unless a read of the same client statement is already there: so a
// statement can say which store time it decided with, its first read. The built-in store's
// one-statement commands read the setting back in the same statement (fast-path.ts
// `clockReadOf`); a value left by another statement is told apart by its stamp.

import type pg from 'pg';

/** The session setting that holds the store time the session's clock last returned. */
export const CLOCK_READ_SETTING = 'testbed.read';

/** The clock table and the functions, created in `schema` (a quoted identifier is not needed: schemas are testbed-made). */
export function databaseTimeSql(schema: string): string {
  // The first read of the client statement is kept: a command decides with its first read (later
  // reads stamp its log rows).
  const stamp = `pg_catalog.statement_timestamp()::text || '|'`;
  const current = `coalesce(pg_catalog.current_setting('${CLOCK_READ_SETTING}', true), '')`;
  const kept = `CASE WHEN pg_catalog.starts_with(${current}, ${stamp}) THEN ${current} ELSE ${stamp} || now_ms::text END`;
  const read = `SELECT now_ms FROM (SELECT now_ms, pg_catalog.set_config('${CLOCK_READ_SETTING}', ${kept}, false) FROM ${schema}.testbed_clock) AS clock`;
  const shadow = (name: string): string => `CREATE FUNCTION ${schema}.${name}() RETURNS timestamptz LANGUAGE sql VOLATILE AS $$ SELECT pg_catalog.to_timestamp(${schema}.testbed_now() / 1000.0) $$;`;
  return `
    CREATE TABLE ${schema}.testbed_clock (now_ms bigint NOT NULL);
    INSERT INTO ${schema}.testbed_clock VALUES (0);
    CREATE FUNCTION ${schema}.testbed_now() RETURNS bigint LANGUAGE sql VOLATILE AS $$ ${read} $$;
    ${['now', 'transaction_timestamp', 'statement_timestamp', 'clock_timestamp'].map(shadow).join('\n    ')}`;
}

/**
 * The store time a client statement first read from the schema's clock, from the setting and the
 * statement's own `statement_timestamp()` read back in it (null: it read none, or the setting is
 * another statement's).
 */
export function clockReadOf(setting: string | null | undefined, statement: string | null | undefined): number | null {
  if (typeof setting !== 'string' || typeof statement !== 'string' || !setting.startsWith(`${statement}|`)) return null;
  const ms = Number(setting.slice(statement.length + 1));
  return Number.isFinite(ms) ? ms : null;
}

/** Sets the store time every connection of the schema reads (on a connection whose `search_path` is the schema). */
export async function setDatabaseTime(client: pg.Client, nowMs: number): Promise<void> {
  await client.query('UPDATE testbed_clock SET now_ms = $1', [nowMs]);
}
