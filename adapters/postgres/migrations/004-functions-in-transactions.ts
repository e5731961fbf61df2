// Migration 4 of the PostgreSQL store (adapters/postgres/schema.ts): the four command functions of
// migration 2 again, as they are now. Since the functions became the only deciders of Acquire,
// Renew, Release and Mutate, they also run as one statement inside a transaction (DispatchJob, a
// store opened with `fastPath: false`: adapters/postgres/lease-functions.ts), with no connection
// id; they then log nothing (002/request-log.ts). A schema migrated before that keeps functions
// that would log a row with no connection id; this migration replaces them. A new schema applies
// migration 2 and this one, and ends with the same functions.

import { ACQUIRE } from './002/acquire.ts';
import { MUTATE } from './002/mutate.ts';
import { RELEASE } from './002/release.ts';
import { RENEW } from './002/renew.ts';
import type { Migration } from './migration.ts';

const replacing = (sql: string): string => sql.replace(/CREATE FUNCTION/g, 'CREATE OR REPLACE FUNCTION');

export const FUNCTIONS_IN_TRANSACTIONS: Migration = {
  version: 4,
  description: 'the command functions run inside a transaction too, logging nothing without a connection id',
  sql: [ACQUIRE, RENEW, RELEASE, MUTATE].map(replacing).join(''),
};
