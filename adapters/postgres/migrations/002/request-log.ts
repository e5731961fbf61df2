// Migration 2 of the PostgreSQL store (../002-one-statement-commands.ts): the request log that
// resolves an unknown outcome of a one-statement command, and the one statement every function
// ends a writing command with: its outcome logged for the calling connection.

/**
 * The last statement of a writing one-statement command (the log entry, after the command's
 * writes). A call from inside a transaction passes no connection id and is not logged: its
 * transaction's id resolves a lost reply (lease-functions.ts).
 */
export const LOG_OUTCOME = `INSERT INTO request_log AS g (conn, request_id, outcome, logged_at)
    SELECT p_conn, p_request, v_out, clock_timestamp() WHERE p_conn IS NOT NULL
    ON CONFLICT (conn) DO UPDATE SET request_id = EXCLUDED.request_id, outcome = EXCLUDED.outcome, logged_at = EXCLUDED.logged_at;`;

export const REQUEST_LOG = `
-- The outcome of the last writing one-statement command of each client connection
-- (fast-path.ts): a connection whose reply was lost is resolved by looking its request id up
-- here. One row per connection, overwritten by the connection's next call (by then its client has
-- the previous reply), so the log holds one row per live connection; rows of connections that went
-- away are swept after an hour (fast-path.ts). Not part of a store image.
CREATE TABLE request_log (
  conn       uuid PRIMARY KEY,
  request_id uuid        NOT NULL,
  outcome    json        NOT NULL,
  logged_at  timestamptz NOT NULL
);

-- Each function below is one command in one statement: normally an autocommit statement, which
-- is its own transaction, so the command costs one network round trip; or one statement of a
-- larger transaction (with no connection id, and then nothing is logged). Isolation and lock order are those
-- of transaction.ts: READ COMMITTED, and inside a VOLATILE function every statement takes a
-- fresh snapshot, so a read that follows a lock sees every commit made before the lock was
-- granted. Locks are taken in the order recovery gate (shared advisory lock, as in BEGIN of the
-- multi-statement path) -> role row (guard) -> the scope's scope_counter row (FOR UPDATE) ->
-- rows under that scope (lease, waiter, aggregate, tombstone) -> this connection's request_log
-- row, which no other connection touches. Without a guard, the gate and the scope lock share one
-- statement: its FROM item takes the gate before the select list's subquery locks the row. A
-- missing scope row is inserted (ON CONFLICT DO NOTHING waits for a racing insert) and locked
-- again. Every write of a command and its log entry go in one final statement (data-modifying
-- CTEs), after the decision. Store time is p_now (virtual ms) or, when NULL, the
-- server clock read after the scope lock is granted. Strings arrive and are stored encoded
-- (text-codec.ts); the outcome JSON carries only what the caller did not send, and
-- fast-path.ts builds the typed outcome from it.
-- Outcomes that changed nothing (Fenced, Busy, Stale, Rejected without a guard write, ...) are
-- not logged: if their reply is lost, "not applied" is exactly true.
`;

/** The recovery gate, shared (as BEGIN of the multi-statement path takes it: transaction.ts). */
export const GATE = 'pg_advisory_xact_lock_shared(7204771, hashtext(current_schema()))';

/** The common prelude: the gate, then the scope's counter row locked and read into v_last, in one statement. */
export const GATE_THEN_SCOPE = `SELECT (SELECT c.last_token FROM scope_counter c WHERE c.scope = p_scope FOR UPDATE) INTO v_last
      FROM (SELECT ${GATE}) gate;`;

/** The end of a command whose guard may have written: its outcome is logged only then. */
export const LOG_IF_GUARD_WROTE = `IF v_wrote THEN
    ${LOG_OUTCOME}
  END IF;
  RETURN v_out;`;

/**
 * A one-statement command: \`testbed_<name>(p_conn, p_request, <params>)\` returning its outcome
 * as JSON in \`v_out\` (declared here, after the command's own variables).
 */
export function commandFunction(name: string, params: string, variables: ReadonlyArray<string>, body: string): string {
  const declared = [...variables, 'v_out json'].map((variable) => `  ${variable};`).join('\n');
  return `
CREATE FUNCTION testbed_${name}(p_conn uuid, p_request uuid, ${params})
RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
${declared}
BEGIN
${body.replace(/^\n+|\s+$/g, '')}
END
$fn$;
`;
}
