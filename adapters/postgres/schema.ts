// The durable schema of the PostgreSQL store (seed 000 §72–§78), as versioned migrations applied
// idempotently: each migration runs once, in its own transaction, recorded in schema_version.
// A transaction-scoped advisory lock serializes concurrent migrators (two stores opening the
// same schema at once); the lock is a narrow primitive only, the tables stay the truth (§73).
//
// Every time is integer milliseconds of store time (bigint). Tokens are bigint.

import type pg from 'pg';
import { TABLES } from './migrations/001-tables.ts';
import { ONE_STATEMENT_COMMANDS } from './migrations/002-one-statement-commands.ts';
import { JOBS } from './migrations/003-jobs.ts';
import { FUNCTIONS_IN_TRANSACTIONS } from './migrations/004-functions-in-transactions.ts';
import type { Migration } from './migrations/migration.ts';

const MIGRATIONS: ReadonlyArray<Migration> = [TABLES, ONE_STATEMENT_COMMANDS, JOBS, FUNCTIONS_IN_TRANSACTIONS];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The tables whose rows make up a store image, in an order that satisfies foreign keys. */
export const DATA_TABLES = [
  'scope_counter',
  'lease',
  'tombstone',
  'counter',
  'waiter',
  'capacity',
  'permit',
  'reservation',
  'aggregate',
  'idempotency',
  'effect_intent',
  'recovery_epoch',
  'blocked_scope',
  'role_epoch',
  'job',
] as const;

export function assertSchemaName(schema: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
}

/** Key chosen once for this project; it only orders concurrent migrators of one database. */
const MIGRATION_LOCK = 7204771001;

/**
 * Replaces functions of the schema (a store's function variants, store.ts `functions`) under the
 * migrators' lock: two stores replacing the same function at once would otherwise fail with
 * "tuple concurrently updated". Safe to call concurrently.
 */
export async function replaceFunctions(client: pg.ClientBase, definitions: ReadonlyArray<string>): Promise<void> {
  if (definitions.length === 0) return;
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    for (const sql of definitions) await client.query(sql.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Create the schema if needed and apply every migration not yet recorded. Safe to call concurrently. */
export async function migrate(client: pg.ClientBase, schema: string): Promise<number> {
  assertSchemaName(schema);
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`SET LOCAL search_path TO ${schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_version (
      version     integer PRIMARY KEY,
      description text NOT NULL,
      applied_at  timestamptz NOT NULL DEFAULT now()
    )`);
    const done = await client.query<{ version: number }>('SELECT version FROM schema_version');
    const applied = new Set(done.rows.map((row) => row.version));
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_version (version, description) VALUES ($1, $2)', [
        migration.version,
        migration.description,
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return SCHEMA_VERSION;
}
