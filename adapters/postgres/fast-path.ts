// Acquire, Renew, Release and Mutate in one network round trip each: one autocommit statement
// `SELECT testbed_<command>(...)` calling a PL/pgSQL function of schema migration 2. A single
// statement outside a transaction block is its own transaction, so no BEGIN and no COMMIT
// travel. The functions decide exactly as lease-commands.ts does (model/SEMANTICS.md check
// order, same locks in the same order, same READ COMMITTED reasoning; see the comment of
// migration 2 in schema.ts). Argument checks that need no state (ttl bounds, id rules) are made
// here, in the rule book's order, and passed in as `p_reject`, so that a guard still runs first.
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
import type { AcquireCommand, Command, MutateCommand, ReleaseCommand, RenewCommand } from '../../model/commands.ts';
import type { AcquireResult, MutateResult, Outcome, ReleaseResult, RenewResult } from '../../model/outcomes.ts';
import { isValidId, isValidTtl } from '../../model/validation.ts';
import { OutcomeUnknownError, StoreUnavailableError } from '../port.ts';
import { decodeText, encodeText } from './text-codec.ts';
import { checkOut, isConnectionError, MAX_ATTEMPTS, RETRYABLE, statementName, type TransactionHooks } from './transaction.ts';

export type FastCommand = AcquireCommand | RenewCommand | ReleaseCommand | MutateCommand;

export function isFastCommand(command: Command): command is FastCommand {
  return command.kind === 'Acquire' || command.kind === 'Renew' || command.kind === 'Release' || command.kind === 'Mutate';
}

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

const ACQUIRE_SQL = 'SELECT testbed_acquire($1::uuid, $2::uuid, $3::text, $4::text, $5::bigint, $6::text, $7::text, $8::float8, $9::text, $10::bigint) AS o';
const RENEW_SQL = 'SELECT testbed_renew($1::uuid, $2::uuid, $3::text, $4::text, $5::float8, $6::bigint, $7::text, $8::bigint) AS o';
const RELEASE_SQL = 'SELECT testbed_release($1::uuid, $2::uuid, $3::text, $4::text, $5::float8, $6::bigint) AS o';
const MUTATE_SQL =
  'SELECT testbed_mutate($1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::float8, $7::float8, $8::text, $9::float8, $10::bigint) AS o';

type Row = Record<string, unknown>;

/** An epoch that is not a finite number is fenced without a write, as a negative one is: the functions take it as -1. */
const guardEpoch = (epoch: number): number => (Number.isFinite(epoch) ? epoch : -1);

/** The statement and its arguments after (conn, request): the command's fields, then store time. */
function callOf(command: FastCommand, now: number | null): { text: string; args: unknown[] } {
  switch (command.kind) {
    case 'Acquire': {
      const ttlOk = isValidTtl(command.ttlMs);
      const idsOk =
        isValidId(command.scope) && isValidId(command.holder) && (command.waiterId === undefined || isValidId(command.waiterId));
      const reject = !ttlOk ? 'ttl-out-of-bounds' : !idsOk ? 'invalid-argument' : null;
      const text = (value: unknown) => (typeof value === 'string' ? encodeText(value) : null);
      return {
        text: ACQUIRE_SQL,
        args: [
          reject === null ? encodeText(command.scope) : text(command.scope),
          reject === null ? encodeText(command.holder) : text(command.holder),
          ttlOk ? command.ttlMs : null,
          command.waiterId === undefined ? null : text(command.waiterId),
          command.guard === undefined ? null : encodeText(command.guard.role),
          command.guard === undefined ? null : guardEpoch(command.guard.epoch),
          reject,
          now,
        ],
      };
    }
    case 'Renew': {
      const ttlOk = isValidTtl(command.ttlMs);
      return {
        text: RENEW_SQL,
        args: [
          encodeText(command.scope),
          encodeText(command.holder),
          command.expectedToken,
          ttlOk ? command.ttlMs : null,
          ttlOk ? null : 'ttl-out-of-bounds',
          now,
        ],
      };
    }
    case 'Release':
      return { text: RELEASE_SQL, args: [encodeText(command.scope), encodeText(command.holder), command.token, now] };
    case 'Mutate':
      return {
        text: MUTATE_SQL,
        args: [
          encodeText(command.scope),
          encodeText(command.aggregate),
          encodeText(command.holder),
          command.token,
          command.expectedVersion,
          command.guard === undefined ? null : encodeText(command.guard.role),
          command.guard === undefined ? null : guardEpoch(command.guard.epoch),
          now,
        ],
      };
  }
}

const n = (value: unknown): number => value as number;
const tokenOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : n(value));

/** The typed outcome, in the same shape and key order as lease-commands.ts builds it. */
export function outcomeOf(command: FastCommand, o: Row): Outcome {
  const kind = o.kind as string;
  if (kind === 'Fenced' && (command.kind === 'Acquire' || command.kind === 'Mutate')) {
    return { kind: 'Fenced', role: command.guard!.role, currentEpoch: n(o.currentEpoch) };
  }
  if (kind === 'Rejected') return { kind: 'Rejected', reason: o.reason } as Outcome;
  if (kind === 'Stale') return { kind: 'Stale', currentToken: tokenOrNull(o.currentToken) };
  switch (command.kind) {
    case 'Acquire': {
      let result: AcquireResult | null = null;
      if (kind === 'Busy') result = { kind: 'Busy', holder: decodeText(o.holder as string), token: n(o.token), expiresAt: n(o.expiresAt) };
      if (kind === 'Acquired') {
        result = {
          kind: 'Acquired',
          lease: { scope: command.scope, holder: command.holder, token: n(o.token), acquiredAt: n(o.acquiredAt), expiresAt: n(o.expiresAt) },
        };
      }
      if (result) return result;
      break;
    }
    case 'Renew': {
      let result: RenewResult | null = null;
      if (kind === 'Expired') result = { kind: 'Expired' };
      if (kind === 'Renewed') {
        result = {
          kind: 'Renewed',
          lease: { scope: command.scope, holder: command.holder, token: n(o.token), acquiredAt: n(o.acquiredAt), expiresAt: n(o.expiresAt) },
        };
      }
      if (result) return result;
      break;
    }
    case 'Release': {
      const result: ReleaseResult | null = kind === 'Released' ? { kind: 'Released', token: n(o.token) } : null;
      if (result) return result;
      break;
    }
    case 'Mutate': {
      let result: MutateResult | null = null;
      if (kind === 'StaleFence') result = { kind: 'StaleFence', currentToken: tokenOrNull(o.currentToken) };
      if (kind === 'StaleVersion') result = { kind: 'StaleVersion', currentVersion: n(o.currentVersion) };
      if (kind === 'Accepted') result = { kind: 'Accepted', version: n(o.version), token: command.token };
      if (result) return result;
      break;
    }
  }
  throw new Error(`unexpected ${command.kind} outcome ${JSON.stringify(o)}`);
}

export class FastPathRunner {
  private readonly connections = new WeakMap<pg.ClientBase, Promise<Connection>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly clientConfig: pg.ClientConfig,
    private readonly hooks: TransactionHooks,
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
      let rows: Array<{ o: Row }>;
      try {
        const result = await client.query<{ o: Row }>({
          name: statementName(call.text),
          text: call.text,
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
