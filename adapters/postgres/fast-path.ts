// Acquire, Renew, Release and Mutate in one network round trip each: one autocommit statement
// `SELECT testbed_<command>(...)` calling a PL/pgSQL function of schema migration 2. A single
// statement outside a transaction block is its own transaction, so no BEGIN and no COMMIT
// travel. The functions are the store's only deciders of these commands (model/SEMANTICS.md
// check order; locks and READ COMMITTED reasoning in the comment of migrations/002/request-log.ts);
// lease-functions.ts builds the call and reads its outcome.
//
// Unknown outcomes. The statement's transaction id cannot be read before the statement runs, so
// each call carries a request id (a random UUID made here) and the connection's id (a random
// UUID given to each pool connection when it opens). A call that changed anything writes its
// outcome JSON into request_log in the same transaction, in the row of its connection. When the
// connection breaks after the statement may have been sent:
//   1. a fresh connection looks `(conn, request id)` up: found -> it committed, the stored
//      outcome is returned;
//   2. not found is not yet "not applied": the statement may still sit in the old backend (waiting
//      for a lock, or not yet read from its socket; PostgreSQL does not notice a dead client while
//      a statement runs). So while the old backend, identified by pid and backend_start (read
//      when the connection opened), is alive, step 1 is repeated a few times (it may just be about
//      to commit), and then it is terminated with pg_terminate_backend(pid, timeout), which returns
//      once the process has exited; after that its transaction is committed or aborted for good;
//   3. the log is read again: found -> committed, the stored outcome; not found -> the statement
//      aborted or never arrived, the command was not applied: StoreUnavailableError.
// A call that changed nothing (Busy, Stale, Fenced, ...) logs nothing, and "not applied" is then
// exactly true. The server unreachable during resolution -> OutcomeUnknownError.
//
// Pruning: one row per connection, overwritten by the connection's next logged call (it is only
// sent after the previous reply arrived, so the previous outcome is no longer needed), so the
// log holds at most one row per connection, updated in place. Rows of connections that went away
// are deleted once they are an hour old, by a sweep each new pool connection runs when it opens
// (SKIP LOCKED, so sweepers never wait). A resolution is only trusted within half of that hour
// of sending the call (it takes seconds), so a swept row is never mistaken for "not applied".

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Outcome } from '../../model/outcomes.ts';
import { OutcomeUnknownError, StoreUnavailableError } from '../port.ts';
import { callOf, outcomeOf, type FastCommand, type Row } from './lease-functions.ts';
import { CLOCK_READ_SETTING, clockReadOf } from './interleave/database-time.ts';
import { checkOut, isConnectionError, MAX_ATTEMPTS, RETRYABLE, statementName, type TransactionHooks } from './transaction.ts';

/** The identity of one pool connection: its log row, and its backend for termination. */
interface Connection {
  readonly conn: string;
  readonly pid: number;
  readonly backendStart: string;
}

/** Rows of connections that went away are swept at this age; resolutions are trusted for half of it. */
const SWEEP_AFTER_MS = 60 * 60 * 1000;
const TRUST_RESOLUTION_MS = SWEEP_AFTER_MS / 2;
const RESOLVE_ATTEMPTS = 10;
const RESOLVE_PAUSE_MS = 50;
const TERMINATE_WAIT_MS = 5000;
/** Polls (RESOLVE_PAUSE_MS apart) that an old backend still alive gets before it is ended. */
const TERMINATE_AFTER_ATTEMPTS = 4;

const SWEEP_SQL = `DELETE FROM request_log WHERE conn IN (
  SELECT conn FROM request_log WHERE logged_at < clock_timestamp() - interval '${SWEEP_AFTER_MS / 1000} seconds' FOR UPDATE SKIP LOCKED)`;
const IDENTIFY_SQL = `SELECT pg_backend_pid() AS pid, (SELECT backend_start::text FROM pg_stat_activity WHERE pid = pg_backend_pid()) AS backend_start`;

/**
 * On a schema with the testbed's clock, the call's statement also answers the store time the
 * function first read (interleave/database-time.ts), with the statement's own stamp: a value
 * read before the function ran would be another statement's, and is not taken.
 */
function reportingClock(text: string): string {
  return text.replace(/ AS o$/, ` AS o, pg_catalog.current_setting('${CLOCK_READ_SETTING}', true) AS at, pg_catalog.statement_timestamp()::text AS stmt`);
}

export class FastPathRunner {
  private readonly connections = new WeakMap<pg.ClientBase, Promise<Connection>>();
  /** The store time the last call decided with, where the schema's clock told it (null otherwise). */
  timeRead: number | null = null;

  /** `databaseClock`: the schema has the testbed's clock, and calls report the time they read from it. */
  constructor(
    private readonly pool: pg.Pool,
    private readonly clientConfig: pg.ClientConfig,
    private readonly hooks: TransactionHooks,
    private readonly databaseClock = false,
    /** Per command, the function called in place of `testbed_<command>` (store.ts `functions`). */
    private readonly functions: Partial<Record<FastCommand['kind'], { readonly name: string }>> = {},
  ) {
    // Queued before anything else the new connection runs. The sweep fails harmlessly on a schema
    // not migrated yet (its own statement, its own implicit transaction).
    pool.on('connect', (client) => {
      this.identify(client);
      client.query(SWEEP_SQL).catch(() => undefined);
    });
  }

  private identify(client: pg.ClientBase): Promise<Connection> {
    let identity = this.connections.get(client);
    if (identity === undefined) {
      identity = client.query<{ pid: number; backend_start: string }>(IDENTIFY_SQL).then((result) => ({
        conn: randomUUID(),
        pid: result.rows[0]!.pid,
        backendStart: result.rows[0]!.backend_start,
      }));
      identity.catch(() => undefined);
      this.connections.set(client, identity);
    }
    return identity;
  }

  async run(command: FastCommand, now: number | null): Promise<Outcome> {
    const kind = command.kind;
    const call = callOf(command, now);
    const variant = this.functions[kind];
    const named = variant === undefined ? call.text : call.text.replace(`testbed_${kind.toLowerCase()}(`, `${variant.name}(`);
    const text = this.databaseClock ? reportingClock(named) : named;
    this.timeRead = null;
    for (let attempt = 1; ; attempt++) {
      const client = await checkOut(this.pool, kind);
      let connection: Connection;
      try {
        connection = await this.identify(client);
      } catch (error) {
        // Nothing of this command was sent: the identity query runs before it on this connection.
        client.release(error instanceof Error ? error : true);
        if (isConnectionError(error)) throw new StoreUnavailableError(kind, error);
        throw error;
      }
      const request = randomUUID();
      try {
        if (this.hooks.beforeCommit) await this.hooks.beforeCommit(connection.pid);
      } catch (error) {
        client.release(error instanceof Error ? error : true);
        throw error;
      }
      const sentAt = performance.now();
      let rows: Array<{ o: Row; at?: string | null; stmt?: string }>;
      try {
        const result = await client.query<{ o: Row; at?: string | null; stmt?: string }>({
          name: statementName(text),
          text,
          values: [connection.conn, request, ...call.args],
        });
        rows = result.rows;
      } catch (error) {
        if (isConnectionError(error)) {
          client.release(error instanceof Error ? error : true);
          return this.resolve(command, connection, request, sentAt, error);
        }
        // An SQL error: the statement's own transaction was rolled back, nothing was applied.
        client.release();
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && RETRYABLE.has(code) && attempt < MAX_ATTEMPTS) continue;
        throw error;
      }
      client.release();
      this.timeRead = clockReadOf(rows[0]!.at, rows[0]!.stmt);
      return outcomeOf(command, rows[0]!.o);
    }
  }

  /** The reply did not come back: what became of `request`? See the comment at the top. */
  private async resolve(command: FastCommand, connection: Connection, request: string, sentAt: number, cause: unknown): Promise<Outcome> {
    const kind = command.kind;
    for (let attempt = 0; attempt < RESOLVE_ATTEMPTS; attempt++) {
      if (performance.now() - sentAt > TRUST_RESOLUTION_MS) break;
      const client = new pg.Client(this.clientConfig);
      client.on('error', () => undefined);
      try {
        await client.connect();
        const lookup = async (): Promise<Row | null> => {
          const found = await client.query<{ outcome: Row }>('SELECT outcome FROM request_log WHERE conn = $1 AND request_id = $2', [
            connection.conn,
            request,
          ]);
          return found.rows[0]?.outcome ?? null;
        };
        const first = await lookup();
        if (first !== null) return outcomeOf(command, first);
        // Not (yet) committed. The old backend may still be about to run it: give it a moment,
        // then end it, so that the statement cannot commit after we answered.
        const terminate = attempt >= TERMINATE_AFTER_ATTEMPTS;
        const alive = await client.query<{ ended: boolean }>(
          `SELECT CASE WHEN $3::boolean THEN pg_terminate_backend(pid, ${TERMINATE_WAIT_MS}) ELSE false END AS ended
             FROM pg_stat_activity WHERE pid = $1 AND backend_start::text = $2 AND pid <> pg_backend_pid()`,
          [connection.pid, connection.backendStart, terminate],
        );
        if (alive.rows.length === 0 || alive.rows[0]!.ended) {
          const gone = await client.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND backend_start::text = $2', [
            connection.pid,
            connection.backendStart,
          ]);
          if (gone.rows.length === 0) {
            const second = await lookup();
            if (second !== null) return outcomeOf(command, second);
            throw new StoreUnavailableError(kind, cause);
          }
        }
      } catch (error) {
        if (error instanceof StoreUnavailableError) throw error;
        throw new OutcomeUnknownError(kind, cause);
      } finally {
        await client.end().catch(() => undefined);
      }
      await new Promise((resolve) => setTimeout(resolve, RESOLVE_PAUSE_MS));
    }
    throw new OutcomeUnknownError(kind, cause);
  }
}
