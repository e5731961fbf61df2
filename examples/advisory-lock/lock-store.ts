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
//   holds the lock, both checked in the same statement as the write.
//
// The testbed tells the store what happens to each process (`lifecycle`): when a process crashes,
// or is cut off from the database, the lock sessions of that process are terminated on the server
// (`pg_terminate_backend`, PostgreSQL 14 or later), and the store answers which leases ended with
// them. The process itself is not told: it learns at its next call. Ending a session at the
// moment of a cut-off is the worst case: the server notices a silent network at once (a short
// `tcp_user_timeout`, or a pooler that drops the connection); with the defaults it may take
// hours, and a short cut-off ends nothing.
//
//     DATABASE_URL=postgresql://... npx testbed run --scenario session-loss --seed 1 --adapter examples/advisory-lock/unfenced.ts

import advisoryLock, { strToKey } from 'advisory-lock';
import pg from 'pg';
import type { Command } from '../../model/commands.ts';
import type { CallContext, LifecycleEvent, SessionLeaseEnd, Store, StoreOptions, TimeSource } from '../../adapters/port.ts';
import type { OutcomeOf } from '../../model/outcomes.ts';

const COMMANDS = ['Acquire', 'Renew', 'Release', 'Mutate'] as const;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS lock_fence (scope text PRIMARY KEY, last bigint NOT NULL);
  CREATE TABLE IF NOT EXISTS lock_owner (scope text PRIMARY KEY, holder text NOT NULL, token bigint NOT NULL, acquired_at bigint NOT NULL, expires_at bigint NOT NULL);
  CREATE TABLE IF NOT EXISTS lock_versions (scope text, aggregate text, version bigint NOT NULL, PRIMARY KEY (scope, aggregate));`;

/** A lock this store took for a holder: the library's unlock, and the server process of its session. */
interface Held {
  readonly holder: string;
  /** The controller incarnation that took it (its sessions are that process's), else the holder. */
  readonly process: string;
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

/** Opens the store: its tables, emptied, on the database the testbed gives it (or DATABASE_URL). */
export async function createLockStore(options: LockStoreOptions): Promise<Store> {
  const connectionString = options.connectionString ?? process.env.DATABASE_URL;
  if (connectionString === undefined) throw new Error('no database: set DATABASE_URL to a PostgreSQL server the store may use');
  if (options.time === 'database') throw new Error('this store keeps lease times in the testbed\'s store time; run it in the simulator');
  const admin = new pg.Client({ connectionString });
  admin.on('error', () => undefined);
  try {
    await admin.connect();
    await admin.query(SCHEMA);
    // Each run starts from empty tables: the store's answers depend on its commands alone.
    await admin.query('TRUNCATE lock_fence, lock_owner, lock_versions');
  } catch (error) {
    await admin.end().catch(() => undefined);
    throw error;
  }
  return new AdvisoryLockStore(admin, createMutex(connectionString), options.time, options.fenced);
}

class AdvisoryLockStore implements Store {
  readonly name: string;
  readonly capabilities = { commands: COMMANDS, referenceSemantics: false, leaseBound: 'session', deterministic: true } as const;
  /** The locks this store took, by scope. */
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly admin: pg.Client,
    private readonly mutex: ReturnType<typeof createMutex>,
    private readonly time: TimeSource,
    private readonly fenced: boolean,
  ) {
    this.name = fenced ? 'advisory-lock (fenced)' : 'advisory-lock (unfenced)';
  }

  execute<C extends Command>(command: C, call?: CallContext): Promise<OutcomeOf<C>> {
    return this.decide(command, call) as Promise<OutcomeOf<C>>;
  }

  /** Told that a process crashed or was cut off, or that the database crashed: its lock sessions end. */
  async lifecycle(event: LifecycleEvent): Promise<{ ended: SessionLeaseEnd[] } | undefined> {
    if (event.kind === 'crash' || event.kind === 'cut-off') return { ended: await this.endSessions(event.process) };
    if (event.kind === 'database-crash') return { ended: await this.endSessions(null) };
    return undefined;
  }

  async close(): Promise<void> {
    await this.endSessions(null);
    await this.admin.end();
  }

  private async decide(command: Command, call: CallContext | undefined): Promise<Outcome> {
    switch (command.kind) {
      case 'Acquire':
        return this.acquire(command, call?.process ?? command.holder);
      case 'Renew':
        return this.renew(command);
      case 'Release': {
        const lock = await this.mine(command.scope, command.holder, command.token);
        if (lock === undefined) return { kind: 'Stale', currentToken: await this.currentToken(command.scope) };
        this.held.delete(command.scope);
        await lock.unlock();
        return { kind: 'Released', token: lock.token };
      }
      case 'Mutate':
        return this.mutate(command);
      default:
        throw new Error(`not implemented: ${command.kind}`);
    }
  }

  private async acquire(command: Extract<Command, { kind: 'Acquire' }>, process: string): Promise<Outcome> {
    const { scope, holder, ttlMs } = command;
    const unlock = await withClientErrorsHeard(() => this.mutex(scope).tryLock());
    if (unlock === undefined) {
      const owner = (await this.admin.query<{ holder: string; token: string; expires_at: string }>('SELECT holder, token, expires_at FROM lock_owner WHERE scope = $1', [scope])).rows[0];
      if (owner === undefined) throw new Error(`scope ${scope} is locked by a session this store does not know`);
      return { kind: 'Busy', holder: owner.holder, token: Number(owner.token), expiresAt: Number(owner.expires_at) };
    }
    const [classid, objid] = lockKey(scope);
    const pid = Number((await this.admin.query<{ pid: number }>("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND objsubid = 2 AND granted", [classid, objid])).rows[0]!.pid);
    const token = Number((await this.admin.query<{ last: string }>('INSERT INTO lock_fence (scope, last) VALUES ($1, 1) ON CONFLICT (scope) DO UPDATE SET last = lock_fence.last + 1 RETURNING last', [scope])).rows[0]!.last);
    const at = this.time.now();
    await this.admin.query(
      'INSERT INTO lock_owner (scope, holder, token, acquired_at, expires_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (scope) DO UPDATE SET holder = $2, token = $3, acquired_at = $4, expires_at = $5',
      [scope, holder, token, at, at + ttlMs],
    );
    this.held.set(scope, { holder, process, token, pid, unlock });
    return { kind: 'Acquired', lease: { scope, holder, token, acquiredAt: at, expiresAt: at + ttlMs } };
  }

  private async renew(command: Extract<Command, { kind: 'Renew' }>): Promise<Outcome> {
    const lock = await this.mine(command.scope, command.holder, command.expectedToken);
    if (lock === undefined) return { kind: 'Stale', currentToken: await this.currentToken(command.scope) };
    const at = this.time.now();
    await this.admin.query('UPDATE lock_owner SET expires_at = $2 WHERE scope = $1', [command.scope, at + command.ttlMs]);
    const acquiredAt = Number((await this.admin.query<{ acquired_at: string }>('SELECT acquired_at FROM lock_owner WHERE scope = $1', [command.scope])).rows[0]!.acquired_at);
    return { kind: 'Renewed', lease: { scope: command.scope, holder: lock.holder, token: lock.token, acquiredAt, expiresAt: at + command.ttlMs } };
  }

  private async mutate(command: Extract<Command, { kind: 'Mutate' }>): Promise<Outcome> {
    const { scope, aggregate, holder, token, expectedVersion } = command;
    const lock = this.held.get(scope);
    if (this.fenced && (lock === undefined || lock.holder !== holder || lock.token !== token)) return { kind: 'StaleFence', currentToken: await this.currentToken(scope) };
    await this.admin.query('INSERT INTO lock_versions (scope, aggregate, version) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING', [scope, aggregate]);
    // Fenced: the token is still the scope's latest, and the lock's session still holds the lock.
    const fence = `AND $4 = (SELECT last FROM lock_fence WHERE scope = $1)
      AND EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = $5 AND objid = $6 AND objsubid = 2 AND granted AND pid = $7)`;
    const values = this.fenced ? [scope, aggregate, expectedVersion, token, ...lockKey(scope), lock!.pid] : [scope, aggregate, expectedVersion];
    const written = await this.admin.query<{ version: string }>(`UPDATE lock_versions SET version = version + 1 WHERE scope = $1 AND aggregate = $2 AND version = $3 ${this.fenced ? fence : ''} RETURNING version`, values);
    if (written.rowCount === 1) return { kind: 'Accepted', version: Number(written.rows[0]!.version), token };
    const version = Number((await this.admin.query<{ version: string }>('SELECT version FROM lock_versions WHERE scope = $1 AND aggregate = $2', [scope, aggregate])).rows[0]!.version);
    if (version !== expectedVersion) return { kind: 'StaleVersion', currentVersion: version };
    return { kind: 'StaleFence', currentToken: await this.currentToken(scope) };
  }

  /** Whether the server process `pid` holds the scope's advisory lock. */
  private async holds(scope: string, pid: number): Promise<boolean> {
    const [classid, objid] = lockKey(scope);
    const found = await this.admin.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND objsubid = 2 AND granted AND pid = $3", [classid, objid, pid]);
    return found.rowCount === 1;
  }

  /** The lease a command names, if this store still holds its lock on the same session. */
  private async mine(scope: string, holder: string, token: number): Promise<Held | undefined> {
    const lock = this.held.get(scope);
    if (lock === undefined || lock.holder !== holder || lock.token !== token) return undefined;
    return (await this.holds(scope, lock.pid)) ? lock : undefined;
  }

  private async currentToken(scope: string): Promise<number | null> {
    const lock = this.held.get(scope);
    return lock !== undefined && (await this.holds(scope, lock.pid)) ? lock.token : null;
  }

  /** Ends the lock sessions of `process` (every one when null) on the server, and says which leases ended. */
  private async endSessions(process: string | null): Promise<SessionLeaseEnd[]> {
    const ended: SessionLeaseEnd[] = [];
    for (const [scope, lock] of [...this.held]) {
      if (process !== null && lock.process !== process) continue;
      this.held.delete(scope);
      // Waits (up to 5 s) until the server process is gone and its locks with it.
      const gone = (await this.admin.query<{ gone: boolean }>('SELECT pg_terminate_backend($1, 5000) AS gone', [lock.pid])).rows[0]?.gone;
      const alive = gone !== true && ((await this.admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [lock.pid])).rowCount ?? 0) > 0;
      if (alive) throw new Error(`the session holding scope ${scope} (server process ${lock.pid}) did not end within 5 s`);
      ended.push({ scope, holder: lock.holder, token: lock.token });
    }
    return ended;
  }
}
