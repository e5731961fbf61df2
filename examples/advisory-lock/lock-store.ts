// Leases on PostgreSQL advisory locks, through the `advisory-lock` library (2.0.0), as a user would
// plug them into the testbed: `tryLock()` takes `pg_try_advisory_lock` on a private session that
// the library opens for the lock, and holds it until `unlock()` or until that session ends. There
// is no TTL and no token: the lease is bound by its session (`leaseBound: 'session'`).
//
// What the glue adds, because the port asks for it: a token per grant (a counter row per scope,
// `lock_fence`), the current owner for a Busy answer (`lock_owner`), and the protected resource
// (`lock_versions`, one version per aggregate). Two uses differ only in Mutate:
// - unfenced.ts writes if the version matches, as code that "holds the lock" would;
// - fenced.ts writes only if its token is still the scope's latest and its lock's session still
//   holds the lock, checked in the same statement as the write.
//
// The testbed tells the store what happens to each process (`lifecycle`): when a process crashes,
// or is cut off from the database, its lock sessions are terminated on the server
// (`pg_terminate_backend`), as the server does when it finds the connection gone, and the store
// answers which leases ended with them. The process itself is not told: it learns at its next call.
//
//     DATABASE_URL=postgresql://... npx testbed run --scenario session-loss --seed 1 --adapter examples/advisory-lock/unfenced.ts

import advisoryLock, { strToKey } from 'advisory-lock';
import pg from 'pg';
import type { Command } from '../../model/commands.ts';
import type { CallContext, LifecycleEvent, SessionLeaseEnd, Store, StoreOptions } from '../../adapters/port.ts';

const COMMANDS = ['Acquire', 'Renew', 'Release', 'Mutate'] as const;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS lock_fence (scope text PRIMARY KEY, last bigint NOT NULL);
  CREATE TABLE IF NOT EXISTS lock_owner (scope text PRIMARY KEY, holder text NOT NULL, token bigint NOT NULL, acquired_at bigint NOT NULL, expires_at bigint NOT NULL);
  CREATE TABLE IF NOT EXISTS lock_versions (scope text, aggregate text, version bigint NOT NULL, PRIMARY KEY (scope, aggregate));`;

/** A lock this store took for a holder: the library's unlock, and the server process of its session. */
interface Held {
  readonly holder: string;
  readonly token: number;
  readonly pid: number;
  readonly unlock: () => Promise<void>;
}

type Outcome = Record<string, unknown> & { kind: string };

// The library is CommonJS with `exports.default`: imported from ES modules, its default export is
// the module object.
const createMutex = (advisoryLock as unknown as { default: typeof advisoryLock }).default;

export interface LockStoreOptions extends StoreOptions {
  readonly fenced: boolean;
}

/** The advisory-lock library's own key for a name, as `pg_locks` shows it (two unsigned 32-bit halves). */
function lockKey(scope: string): [number, number] {
  const [high, low] = strToKey(scope);
  return [high >>> 0, low >>> 0];
}

/**
 * advisory-lock 2.0.0 opens a `pg.Client` per lock and listens for no 'error' on it: when the
 * server ends that session, the client's 'error' event would have no listener and take the whole
 * process down. The glue listens on every client opened while it takes a lock.
 */
async function withClientErrorsHeard<T>(take: () => Promise<T>): Promise<T> {
  const connect = pg.Client.prototype.connect;
  pg.Client.prototype.connect = function (this: pg.Client, ...args: unknown[]) {
    if (this.listenerCount('error') === 0) this.on('error', () => undefined);
    return (connect as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof connect;
  try {
    return await take();
  } finally {
    pg.Client.prototype.connect = connect;
  }
}

export async function createLockStore(options: LockStoreOptions): Promise<Store> {
  const connectionString = options.connectionString ?? process.env.DATABASE_URL;
  if (connectionString === undefined) throw new Error('no database: set DATABASE_URL to a PostgreSQL server the store may use');
  if (options.time === 'database') throw new Error('this store keeps lease times in the testbed\'s store time; run it in the simulator');
  const time = options.time;
  const admin = new pg.Client({ connectionString });
  admin.on('error', () => undefined);
  await admin.connect();
  await admin.query(SCHEMA);
  // Each run starts from empty tables: the store's answers depend on its commands alone.
  await admin.query('TRUNCATE lock_fence, lock_owner, lock_versions');
  const mutex = createMutex(connectionString);
  const held = new Map<string, Held>();

  const holds = async (scope: string, pid: number): Promise<boolean> => {
    const [classid, objid] = lockKey(scope);
    const found = await admin.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND objsubid = 2 AND granted AND pid = $3", [classid, objid, pid]);
    return found.rowCount === 1;
  };

  async function acquire(command: Extract<Command, { kind: 'Acquire' }>): Promise<Outcome> {
    const { scope, holder, ttlMs } = command;
    const unlock = await withClientErrorsHeard(() => mutex(scope).tryLock());
    if (unlock === undefined) {
      const owner = (await admin.query<{ holder: string; token: string; expires_at: string }>('SELECT holder, token, expires_at FROM lock_owner WHERE scope = $1', [scope])).rows[0];
      if (owner === undefined) throw new Error(`scope ${scope} is locked by a session this store does not know`);
      return { kind: 'Busy', holder: owner.holder, token: Number(owner.token), expiresAt: Number(owner.expires_at) };
    }
    const [classid, objid] = lockKey(scope);
    const pid = Number((await admin.query<{ pid: number }>("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND objsubid = 2 AND granted", [classid, objid])).rows[0]!.pid);
    const token = Number((await admin.query<{ last: string }>('INSERT INTO lock_fence (scope, last) VALUES ($1, 1) ON CONFLICT (scope) DO UPDATE SET last = lock_fence.last + 1 RETURNING last', [scope])).rows[0]!.last);
    const at = time.now();
    await admin.query(
      'INSERT INTO lock_owner (scope, holder, token, acquired_at, expires_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (scope) DO UPDATE SET holder = $2, token = $3, acquired_at = $4, expires_at = $5',
      [scope, holder, token, at, at + ttlMs],
    );
    held.set(scope, { holder, token, pid, unlock });
    return { kind: 'Acquired', lease: { scope, holder, token, acquiredAt: at, expiresAt: at + ttlMs } };
  }

  /** The lease `command` names, if this store still holds its lock on the same session. */
  async function mine(scope: string, holder: string, token: number): Promise<Held | undefined> {
    const lock = held.get(scope);
    if (lock === undefined || lock.holder !== holder || lock.token !== token) return undefined;
    return (await holds(scope, lock.pid)) ? lock : undefined;
  }

  const currentToken = async (scope: string): Promise<number | null> => {
    const lock = held.get(scope);
    return lock !== undefined && (await holds(scope, lock.pid)) ? lock.token : null;
  };

  async function mutate(command: Extract<Command, { kind: 'Mutate' }>): Promise<Outcome> {
    const { scope, aggregate, holder, token, expectedVersion } = command;
    if (options.fenced && (await mine(scope, holder, token)) === undefined) return { kind: 'StaleFence', currentToken: await currentToken(scope) };
    await admin.query('INSERT INTO lock_versions (scope, aggregate, version) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING', [scope, aggregate]);
    const fence = options.fenced ? 'AND $4 = (SELECT last FROM lock_fence WHERE scope = $1)' : '';
    const written = await admin.query<{ version: string }>(`UPDATE lock_versions SET version = version + 1 WHERE scope = $1 AND aggregate = $2 AND version = $3 ${fence} RETURNING version`, options.fenced ? [scope, aggregate, expectedVersion, token] : [scope, aggregate, expectedVersion]);
    if (written.rowCount === 1) return { kind: 'Accepted', version: Number(written.rows[0]!.version), token };
    const version = Number((await admin.query<{ version: string }>('SELECT version FROM lock_versions WHERE scope = $1 AND aggregate = $2', [scope, aggregate])).rows[0]!.version);
    if (version !== expectedVersion) return { kind: 'StaleVersion', currentVersion: version };
    return { kind: 'StaleFence', currentToken: await currentToken(scope) };
  }

  async function decide(command: Command): Promise<Outcome> {
    switch (command.kind) {
      case 'Acquire':
        return acquire(command);
      case 'Renew': {
        const lock = await mine(command.scope, command.holder, command.expectedToken);
        if (lock === undefined) return { kind: 'Stale', currentToken: await currentToken(command.scope) };
        const at = time.now();
        await admin.query('UPDATE lock_owner SET expires_at = $2 WHERE scope = $1', [command.scope, at + command.ttlMs]);
        const acquiredAt = Number((await admin.query<{ acquired_at: string }>('SELECT acquired_at FROM lock_owner WHERE scope = $1', [command.scope])).rows[0]!.acquired_at);
        return { kind: 'Renewed', lease: { scope: command.scope, holder: lock.holder, token: lock.token, acquiredAt, expiresAt: at + command.ttlMs } };
      }
      case 'Release': {
        const lock = await mine(command.scope, command.holder, command.token);
        if (lock === undefined) return { kind: 'Stale', currentToken: await currentToken(command.scope) };
        held.delete(command.scope);
        await lock.unlock();
        return { kind: 'Released', token: lock.token };
      }
      case 'Mutate':
        return mutate(command);
      default:
        throw new Error(`not implemented: ${command.kind}`);
    }
  }

  /** Ends the lock sessions of `holder` (every one when null) on the server, and says which leases ended. */
  async function endSessions(holder: string | null): Promise<SessionLeaseEnd[]> {
    const ended: SessionLeaseEnd[] = [];
    for (const [scope, lock] of [...held]) {
      if (holder !== null && lock.holder !== holder) continue;
      held.delete(scope);
      // Waits (up to 5 s) until the server process is gone and its locks with it.
      await admin.query('SELECT pg_terminate_backend($1, 5000)', [lock.pid]);
      ended.push({ scope, holder: lock.holder, token: lock.token });
    }
    return ended;
  }

  return {
    name: options.fenced ? 'advisory-lock (fenced)' : 'advisory-lock (unfenced)',
    capabilities: { commands: COMMANDS, referenceSemantics: false, leaseBound: 'session', deterministic: true },
    execute: (command, _call?: CallContext) => decide(command) as never,
    async lifecycle(event: LifecycleEvent) {
      if (event.kind === 'crash' || event.kind === 'cut-off') return { ended: await endSessions(event.process) };
      if (event.kind === 'database-crash') return { ended: await endSessions(null) };
      return undefined;
    },
    async close() {
      await endSessions(null);
      await admin.end();
    },
  };
}
