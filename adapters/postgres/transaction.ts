// One command = one transaction, and what a broken connection means for it. This is the
// multi-statement path (two round trips); Acquire, Renew, Release and Mutate normally take the
// one-statement path of fast-path.ts, with the same isolation and lock order, and when they run
// in a transaction here, they call the same PL/pgSQL function (lease-functions.ts).
//
// Isolation: READ COMMITTED plus explicit row locks, chosen on purpose. Every command that reads
// or writes a scope first locks that scope's row in `scope_counter` (SELECT ... FOR UPDATE, or an
// upsert that locks it), so all commands on one scope run one after another, and each statement
// after the lock sees every earlier commit on that scope (READ COMMITTED takes a fresh snapshot
// per statement). Global state has its own lock rows: the waiter seq counter, idempotency,
// intent and role rows. The recovery epoch is guarded by a transaction-scoped advisory lock per
// schema, taken in the BEGIN round trip: shared by every writing command, exclusive by
// AdvanceRecoveryEpoch and restore, so an epoch change is ordered against every command and no
// lease is issued under an old epoch after a new one commits. The advisory lock only orders
// transactions; the epoch itself lives in the recovery_epoch table (seed 000 §73). Locks are
// taken in the order recovery gate -> job row -> role -> scopes (canonical order) ->
// counters/records (a job row only by the job commands, job-commands.ts, and never after a role
// or scope row), so no cycle forms. Deadlock (40P01), serialization failure (40001) and unique violation (23505,
// two racing inserts of one new id) are still retried: the server aborted that transaction, so nothing of
// it was applied, and the rerun decides again from the current state with the same store time.
// SERIALIZABLE would also be correct but would abort and retry hot scopes constantly, where the
// row lock simply queues them (seed 000 §72: "SELECT ... FOR UPDATE where appropriate").
//
// Unknown outcomes: the transaction's id is read before any work (`pg_current_xact_id()`). A
// connection error before COMMIT was sent means the server aborts the transaction, so the command
// was not applied: StoreUnavailableError, and the caller may retry. A connection error while
// COMMIT was in flight is resolved on a fresh connection with `pg_xact_status(xid)`: committed ->
// the outcome computed inside the transaction is exactly what committed, so it is returned;
// aborted -> StoreUnavailableError; still in progress (the old backend has not noticed the broken
// connection) -> after a short wait that backend is terminated, which settles it one way or the
// other; forgotten (status null) or server unreachable -> OutcomeUnknownError (the caller
// records `info`).

import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Command } from '../../model/commands.ts';
import { OutcomeUnknownError, StoreUnavailableError } from '../port.ts';

export interface Tx {
  query<R extends object = Record<string, unknown>>(text: string, values?: ReadonlyArray<unknown>): Promise<R[]>;
  /** Store time in ms. Call it after taking the locks the decision depends on. */
  now(): Promise<number>;
  /** The injected virtual time, or null when the server's clock is the store clock. */
  readonly virtualNow: number | null;
  /** Remember a store time read by a lock statement (database time): the latest lock's wins. */
  noteNow(now: number): void;
  /** The store time this transaction decided with, once read (null: not read yet). */
  timeRead(): number | null;
  /**
   * A write that nothing later in this transaction reads: it is sent together with COMMIT. Its
   * failure aborts the transaction like any other statement's.
   */
  defer(text: string, values: ReadonlyArray<unknown>): void;
  takeDeferred(): ReadonlyArray<readonly [string, ReadonlyArray<unknown>]>;
}

/** SQL for store time: the injected parameter, else the server's clock (integer ms). */
export function nowSql(param: number): string {
  return `coalesce($${param}::bigint, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint)`;
}

export interface TransactionHooks {
  /** Called right before COMMIT is sent, with the backend pid (tests kill it here). */
  beforeCommit?(backendPid: number): Promise<void>;
}

export const RETRYABLE = new Set(['40001', '40P01', '23505']);

/** A checked-out client whose connection dies emits 'error'; the failing query reports it too. */
const listening = new WeakSet<pg.PoolClient>();

/** Checks a client out of the pool; no connection means nothing of `kind` was sent. */
export async function checkOut(pool: pg.Pool, kind: Kind): Promise<pg.PoolClient> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw new StoreUnavailableError(kind, error);
  }
  if (!listening.has(client)) {
    listening.add(client);
    client.on('error', () => undefined);
  }
  return client;
}
export const MAX_ATTEMPTS = 8;
const RESOLVE_ATTEMPTS = 40;
const RESOLVE_PAUSE_MS = 50;
/** Polls before an old backend still running the transaction is terminated to force a decision. */
const TERMINATE_AFTER_ATTEMPTS = 4;

/** A broken or refused connection, as opposed to an SQL error on a healthy one. */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (/^08/.test(code) || code === '57P01' || code === '57P02' || code === '57P03') return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'ECONNABORTED'].includes(code)) return true;
    return false;
  }
  return /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect|Connection ended/i.test(error.message);
}

type Kind = Command['kind'];

export interface RunOptions {
  /** A REPEATABLE READ READ ONLY snapshot (Inspect, snapshot()): no gate, no xid. */
  readonly readOnly?: boolean;
  /** Take the recovery gate exclusively (AdvanceRecoveryEpoch, restore()). */
  readonly exclusive?: boolean;
}

/** The recovery gate: one advisory lock key per schema, so stores in other schemas never wait. */
const GATE_KEY = '7204771, hashtext(current_schema())';

export class TransactionRunner {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clientConfig: pg.ClientConfig,
    private readonly hooks: TransactionHooks,
  ) {}

  async run<T>(kind: Kind, virtualNow: number | null, body: (tx: Tx) => Promise<T>, options: RunOptions = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await checkOut(this.pool, kind);
      let stage: 'begin' | 'body' | 'commit' = 'begin';
      let xid: string | null = null;
      let outcome: T | undefined;
      try {
        // The connection is pipelined: BEGIN travels with the command's first statements, and
        // the deferred writes travel with COMMIT, so a typical command costs two round trips.
        // The simple protocol may carry two statements when they take no parameters.
        const gate = options.exclusive ? 'pg_advisory_xact_lock' : 'pg_advisory_xact_lock_shared';
        const begun = client.query(
          options.readOnly
            ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'
            : `BEGIN ISOLATION LEVEL READ COMMITTED; SELECT ${gate}(${GATE_KEY}), pg_current_xact_id()::text AS xid`,
        ) as unknown as Promise<pg.QueryResult | pg.QueryResult[]>;
        begun.catch(() => undefined);
        stage = 'body';
        const tx = makeTx(client, virtualNow);
        outcome = await body(tx);
        const begin = await begun;
        if (Array.isArray(begin)) xid = String(begin[1]!.rows[0]!.xid);
        stage = 'commit';
        if (this.hooks.beforeCommit) await this.hooks.beforeCommit((client as unknown as { processID: number }).processID);
        const writes = tx.takeDeferred().map(([text, values]) => client.query({ name: statementName(text), text, values: values as unknown[] }));
        const settled = await Promise.allSettled([...writes, client.query('COMMIT')]);
        const failed = settled.find((result) => result.status === 'rejected');
        if (failed) throw (failed as PromiseRejectedResult).reason;
        client.release();
        return outcome;
      } catch (error) {
        if (isConnectionError(error)) {
          client.release(error instanceof Error ? error : true);
          const pid = (client as unknown as { processID: number }).processID;
          if (stage === 'commit' && xid !== null) return this.resolve(kind, xid, pid, outcome as T, error);
          throw new StoreUnavailableError(kind, error);
        }
        try {
          await client.query('ROLLBACK');
          client.release();
        } catch (rollbackError) {
          client.release(rollbackError instanceof Error ? rollbackError : true);
        }
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && RETRYABLE.has(code) && attempt < MAX_ATTEMPTS) continue;
        throw error;
      }
    }
  }

  /**
   * COMMIT was sent and no answer came back: ask the server what became of the transaction. If
   * it is still in progress (its backend has not noticed the broken connection, or never got the
   * COMMIT), end it: terminate the backend that still runs exactly this transaction id, after
   * which the transaction is committed or aborted for good.
   */
  private async resolve<T>(kind: Kind, xid: string, backendPid: number, outcome: T, cause: unknown): Promise<T> {
    for (let attempt = 0; attempt < RESOLVE_ATTEMPTS; attempt++) {
      const client = new pg.Client(this.clientConfig);
      client.on('error', () => undefined);
      let status: string | null;
      try {
        await client.connect();
        const result = await client.query<{ status: string | null }>('SELECT pg_xact_status($1::xid8) AS status', [xid]);
        status = result.rows[0]?.status ?? null;
        if (status === 'in progress' && attempt >= TERMINATE_AFTER_ATTEMPTS) {
          await client.query('SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE pid = $1 AND backend_xid = xid($2::xid8)', [
            backendPid,
            xid,
          ]);
        }
      } catch {
        throw new OutcomeUnknownError(kind, cause);
      } finally {
        await client.end().catch(() => undefined);
      }
      if (status === 'committed') return outcome;
      if (status === 'aborted') throw new StoreUnavailableError(kind, cause);
      if (status !== 'in progress') break;
      await new Promise((resolve) => setTimeout(resolve, RESOLVE_PAUSE_MS));
    }
    throw new OutcomeUnknownError(kind, cause);
  }
}

/**
 * Every statement text is a constant of this adapter, so each is prepared once per connection
 * (named by its hash) and later runs skip parsing and planning.
 */
const statementNames = new Map<string, string>();
export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `tb_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    statementNames.set(text, name);
  }
  return name;
}

function makeTx(client: pg.PoolClient, virtualNow: number | null): Tx {
  let cached: number | null = virtualNow;
  let deferred: Array<readonly [string, ReadonlyArray<unknown>]> = [];
  return {
    defer(text, values) {
      deferred.push([text, values]);
    },
    takeDeferred() {
      const taken = deferred;
      deferred = [];
      return taken;
    },
    virtualNow,
    async query<R extends object>(text: string, values: ReadonlyArray<unknown> = []): Promise<R[]> {
      const result = await client.query<R>({ name: statementName(text), text, values: values as unknown[] });
      return result.rows;
    },
    async now(): Promise<number> {
      if (cached !== null) return cached;
      const text = `SELECT ${nowSql(1)} AS now`;
      const rows = await client.query<{ now: number }>({ name: statementName(text), text, values: [null] });
      cached = rows.rows[0]!.now;
      return cached;
    },
    noteNow(now: number): void {
      if (virtualNow === null) cached = now;
    },
    timeRead: () => cached,
  };
}
