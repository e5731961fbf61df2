// A lease store of your own on PostgreSQL, as a `--adapter <module>` for the testbed: four
// commands of the store port (Acquire, Renew, Release, Mutate) in plain SQL on `pg`, one
// transaction each, the scope's token row locked first so that calls on one scope run one after
// another. It keeps its data where the testbed tells it (`options.connectionString`; else
// DATABASE_URL), so the testbed can run it interleaved:
//
//     npx testbed run --scenario examples/pg-lease-store/contention.json --seed 1 --adapter examples/pg-lease-store/lease-store.ts --interleave
//
// `racy.ts` is the same store with the lock left out of Acquire: a check-then-write race that
// every serial run passes and `--interleave` catches.

import pg from 'pg';
import type { Command } from '../../model/commands.ts';
import type { Store, StoreFactory, StoreOptions } from '../../adapters/port.ts';

const COMMANDS = ['Acquire', 'Renew', 'Release', 'Mutate'] as const;
const TTL_MAX_MS = 600_000;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS lease_tokens (scope text PRIMARY KEY, last bigint NOT NULL);
  CREATE TABLE IF NOT EXISTS leases (scope text PRIMARY KEY, holder text NOT NULL, token bigint NOT NULL, acquired_at bigint NOT NULL, expires_at bigint NOT NULL);
  CREATE TABLE IF NOT EXISTS lease_versions (scope text, aggregate text, version bigint NOT NULL, PRIMARY KEY (scope, aggregate));`;

interface LeaseRow {
  holder: string;
  token: string;
  acquired_at: string;
  expires_at: string;
}

type Outcome = Record<string, unknown> & { kind: string };

export interface LeaseStoreOptions extends StoreOptions {
  /** Read the token counter without locking it (a race, for the testbed to find). */
  readonly race?: boolean;
  /**
   * Read store time in SQL (`now()`), after the scope's lock, instead of from `options.time`: the
   * way a store whose expiry lives in SQL reads it. The testbed's database time makes `now()` the
   * run's virtual time.
   */
  readonly sqlTime?: boolean;
}

export async function createLeaseStore(options: LeaseStoreOptions): Promise<Store> {
  const connectionString = options.connectionString ?? process.env.DATABASE_URL;
  if (connectionString === undefined) throw new Error('no database: give options.connectionString or set DATABASE_URL');
  const client = new pg.Client({ connectionString });
  client.on('error', () => undefined);
  await client.connect();
  await client.query(SCHEMA);
  const now = (): number => (options.time === 'database' ? Date.now() : options.time.now());
  const one = async (sql: string, values: unknown[]): Promise<LeaseRow | undefined> => (await client.query<LeaseRow>(sql, values)).rows[0];

  const lease = (scope: string, row: LeaseRow) => ({ scope, holder: row.holder, token: Number(row.token), acquiredAt: Number(row.acquired_at), expiresAt: Number(row.expires_at) });

  const sqlNow = async (): Promise<number> => Number((await client.query<{ at: string }>('SELECT floor(extract(epoch FROM now()) * 1000)::bigint AS at')).rows[0]!.at);

  async function decide(command: Command, given: number | null): Promise<Outcome> {
    if (!('scope' in command) || typeof command.scope !== 'string') throw new Error(`not implemented: ${command.kind}`);
    const scope = command.scope;
    await client.query('INSERT INTO lease_tokens (scope, last) VALUES ($1, 0) ON CONFLICT (scope) DO NOTHING', [scope]);
    const counter = await one(`SELECT last AS token FROM lease_tokens WHERE scope = $1${options.race === true && command.kind === 'Acquire' ? '' : ' FOR UPDATE'}`, [scope]);
    const at = given ?? (await sqlNow());
    const row = await one('SELECT holder, token, acquired_at, expires_at FROM leases WHERE scope = $1', [scope]);
    const live = row !== undefined && at < Number(row.expires_at) ? row : undefined;
    const stale = { kind: 'Stale', currentToken: live === undefined ? null : Number(live.token) };
    switch (command.kind) {
      case 'Acquire': {
        if (!Number.isInteger(command.ttlMs) || command.ttlMs < 1 || command.ttlMs > TTL_MAX_MS) return { kind: 'Rejected', reason: 'ttl-out-of-bounds' };
        if (live !== undefined) return { kind: 'Busy', holder: live.holder, token: Number(live.token), expiresAt: Number(live.expires_at) };
        if (command.waiterId !== undefined) return { kind: 'Rejected', reason: 'unknown-waiter' };
        const token = Number(counter!.token) + 1;
        await client.query('UPDATE lease_tokens SET last = $2 WHERE scope = $1', [scope, token]);
        const granted = { holder: command.holder, token: String(token), acquired_at: String(at), expires_at: String(at + command.ttlMs) };
        await client.query(
          `INSERT INTO leases (scope, holder, token, acquired_at, expires_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (scope) DO UPDATE SET holder = $2, token = $3, acquired_at = $4, expires_at = $5`,
          [scope, granted.holder, token, at, at + command.ttlMs],
        );
        return { kind: 'Acquired', lease: lease(scope, granted) };
      }
      case 'Renew': {
        if (!Number.isInteger(command.ttlMs) || command.ttlMs < 1 || command.ttlMs > TTL_MAX_MS) return { kind: 'Rejected', reason: 'ttl-out-of-bounds' };
        if (row === undefined || Number(row.token) !== command.expectedToken || row.holder !== command.holder) return stale;
        if (at >= Number(row.expires_at)) return { kind: 'Expired' };
        await client.query('UPDATE leases SET expires_at = $2 WHERE scope = $1', [scope, at + command.ttlMs]);
        return { kind: 'Renewed', lease: lease(scope, { ...row, expires_at: String(at + command.ttlMs) }) };
      }
      case 'Release':
        if (live === undefined || Number(live.token) !== command.token || live.holder !== command.holder) return stale;
        await client.query('DELETE FROM leases WHERE scope = $1', [scope]);
        return { kind: 'Released', token: command.token };
      case 'Mutate': {
        if (live === undefined || Number(live.token) !== command.token || live.holder !== command.holder) return { kind: 'StaleFence', currentToken: stale.currentToken };
        const version = Number((await client.query<{ version: string }>('SELECT version FROM lease_versions WHERE scope = $1 AND aggregate = $2', [scope, command.aggregate])).rows[0]?.version ?? 0);
        if (version !== command.expectedVersion) return { kind: 'StaleVersion', currentVersion: version };
        await client.query(
          'INSERT INTO lease_versions (scope, aggregate, version) VALUES ($1, $2, $3) ON CONFLICT (scope, aggregate) DO UPDATE SET version = $3',
          [scope, command.aggregate, version + 1],
        );
        return { kind: 'Accepted', version: version + 1, token: command.token };
      }
      default:
        throw new Error(`not implemented: ${command.kind}`);
    }
  }

  return {
    name: options.race === true ? 'pg-lease-store (racy)' : 'pg-lease-store',
    capabilities: { commands: COMMANDS, deterministic: true },
    async execute(command) {
      const at = options.sqlTime === true ? null : now();
      await client.query('BEGIN');
      try {
        const outcome = await decide(command, at);
        await client.query('COMMIT');
        return outcome as never;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    close: () => client.end(),
  };
}

const factory: StoreFactory = (options) => createLeaseStore(options);
export default factory;
