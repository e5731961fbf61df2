// Migration 2 of the PostgreSQL store (adapters/postgres/schema.ts): the PL/pgSQL functions that
// decide Acquire, Renew, Release and Mutate in one statement, and the request log that resolves
// an unknown outcome of one of them. Each function is a file of 002/; the statement that logs an
// outcome is written once (002/request-log.ts).

import { ACQUIRE } from './002/acquire.ts';
import { GUARD } from './002/guard.ts';
import { MUTATE } from './002/mutate.ts';
import { RELEASE } from './002/release.ts';
import { RENEW } from './002/renew.ts';
import { REQUEST_LOG } from './002/request-log.ts';
import type { Migration } from './migration.ts';

export const ONE_STATEMENT_COMMANDS: Migration = {
  version: 2,
  description: 'one-statement Acquire, Renew, Release and Mutate; request log for unknown outcomes',
  sql: [REQUEST_LOG, GUARD, ACQUIRE, RENEW, RELEASE, MUTATE].join(''),
};
