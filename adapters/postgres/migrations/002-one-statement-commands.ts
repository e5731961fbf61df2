// Migration 2 of the PostgreSQL store (adapters/postgres/schema.ts): the PL/pgSQL functions that
// decide Acquire, Renew, Release and Mutate in one statement, and the request log that resolves
// an unknown outcome of one of them.

import type { Migration } from './migration.ts';

export const ONE_STATEMENT_COMMANDS: Migration = {
  version: 2,
  description: 'one-statement Acquire, Renew, Release and Mutate; request log for unknown outcomes',
  sql: `
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

-- Each function below is one command in one autocommit statement: the statement is the
-- transaction, so the command costs one network round trip. Isolation and lock order are those
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

-- Step 1 of Acquire and Mutate (seed 001 §92–§95): NULL when the guard passes (its epoch is now
-- stored), else the stored epoch that fences it. A negative epoch is fenced without a write.
CREATE FUNCTION testbed_guard(p_role text, p_epoch double precision) RETURNS double precision
LANGUAGE plpgsql AS $fn$
DECLARE
  v_stored double precision;
BEGIN
  IF p_epoch < 0 THEN
    SELECT r.epoch INTO v_stored FROM role_epoch r WHERE r.role = p_role FOR SHARE;
    RETURN coalesce(v_stored, 0);
  END IF;
  INSERT INTO role_epoch AS r (role, epoch) VALUES (p_role, p_epoch)
  ON CONFLICT (role) DO UPDATE SET epoch = greatest(r.epoch, EXCLUDED.epoch)
  RETURNING r.epoch INTO v_stored;
  IF v_stored > p_epoch THEN
    RETURN v_stored;
  END IF;
  RETURN NULL;
END
$fn$;

CREATE FUNCTION testbed_acquire(p_conn uuid, p_request uuid, p_scope text, p_holder text, p_ttl bigint,
                                p_waiter text, p_role text, p_epoch double precision, p_reject text, p_now bigint)
RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
  v_wrote boolean := false;
  v_fenced double precision;
  v_last bigint;
  v_recovery bigint;
  v_now bigint;
  v_blocked text;
  v_holder text;
  v_token bigint;
  v_expires bigint;
  v_queued boolean;
  v_out json;
BEGIN
  IF p_role IS NULL AND p_reject IS NULL THEN
    -- The common case: gate, then scope lock, in one statement (the FROM item is evaluated
    -- before the select list's subquery locks the row).
    SELECT (SELECT c.last_token FROM scope_counter c WHERE c.scope = p_scope FOR UPDATE) INTO v_last
      FROM (SELECT pg_advisory_xact_lock_shared(7204771, hashtext(current_schema()))) gate;
  ELSE
    PERFORM pg_advisory_xact_lock_shared(7204771, hashtext(current_schema()));
    IF p_role IS NOT NULL THEN
      v_fenced := testbed_guard(p_role, p_epoch);
      IF v_fenced IS NOT NULL THEN
        RETURN json_build_object('kind', 'Fenced', 'currentEpoch', v_fenced);
      END IF;
      v_wrote := true;
    END IF;
    IF p_reject IS NULL THEN
      SELECT c.last_token INTO v_last FROM scope_counter c WHERE c.scope = p_scope FOR UPDATE;
    END IF;
  END IF;
  IF p_reject IS NOT NULL THEN
    v_out := json_build_object('kind', 'Rejected', 'reason', p_reject);
  ELSE
    IF v_last IS NULL THEN
      -- A racing insert of the same scope makes this wait for it, then find its row.
      INSERT INTO scope_counter (scope) VALUES (p_scope) ON CONFLICT (scope) DO NOTHING;
      SELECT c.last_token INTO v_last FROM scope_counter c WHERE c.scope = p_scope FOR UPDATE;
    END IF;
    SELECT coalesce(p_now, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint),
           (SELECT e.epoch FROM recovery_epoch e),
           (SELECT b.state FROM blocked_scope b WHERE b.scope = p_scope),
           l.holder, l.token, l.expires_at,
           EXISTS (SELECT 1 FROM waiter w WHERE w.scope = p_scope)
      INTO v_now, v_recovery, v_blocked, v_holder, v_token, v_expires, v_queued
      FROM (SELECT 1) one LEFT JOIN lease l ON l.scope = p_scope;
    IF v_blocked = 'Quarantined' THEN
      v_out := json_build_object('kind', 'Rejected', 'reason', 'quarantined');
    ELSIF v_blocked IS NOT NULL THEN
      v_out := json_build_object('kind', 'Rejected', 'reason', 'blocked-for-reconciliation');
    ELSIF v_expires IS NOT NULL AND v_now < v_expires THEN
      v_out := json_build_object('kind', 'Busy', 'holder', v_holder, 'token', v_token, 'expiresAt', v_expires);
    ELSIF v_queued AND p_waiter IS NULL THEN
      v_out := json_build_object('kind', 'Rejected', 'reason', 'not-head-of-queue');
    ELSIF NOT v_queued AND p_waiter IS NOT NULL THEN
      v_out := json_build_object('kind', 'Rejected', 'reason', 'unknown-waiter');
    ELSIF v_queued THEN
      -- (A condition with a subquery runs as a query of its own: only evaluated when queued.)
      IF NOT EXISTS (SELECT 1 FROM waiter w WHERE w.scope = p_scope AND w.waiter_id = p_waiter) THEN
        v_out := json_build_object('kind', 'Rejected', 'reason', 'unknown-waiter');
      ELSIF (SELECT w.waiter_id FROM waiter w WHERE w.scope = p_scope
              ORDER BY w.priority + floor((v_now - w.enqueued_at) / 1000.0) DESC, w.seq
              LIMIT 1) <> p_waiter THEN
        v_out := json_build_object('kind', 'Rejected', 'reason', 'not-head-of-queue');
      END IF;
    END IF;
    IF v_out IS NULL THEN
      -- Every write of the grant, and the log entry, in one statement.
      v_token := greatest(v_last, v_recovery * 1000000000) + 1;
      v_out := json_build_object('kind', 'Acquired', 'token', v_token, 'acquiredAt', v_now, 'expiresAt', v_now + p_ttl);
      WITH t AS (UPDATE scope_counter c SET last_token = v_token WHERE c.scope = p_scope),
           q AS (DELETE FROM waiter w WHERE v_queued AND w.scope = p_scope AND w.waiter_id = p_waiter),
           l AS (INSERT INTO lease (scope, holder, token, acquired_at, expires_at) VALUES (p_scope, p_holder, v_token, v_now, v_now + p_ttl)
                 ON CONFLICT (scope) DO UPDATE SET holder = EXCLUDED.holder, token = EXCLUDED.token,
                   acquired_at = EXCLUDED.acquired_at, expires_at = EXCLUDED.expires_at)
      INSERT INTO request_log AS g (conn, request_id, outcome, logged_at) VALUES (p_conn, p_request, v_out, clock_timestamp())
      ON CONFLICT (conn) DO UPDATE SET request_id = EXCLUDED.request_id, outcome = EXCLUDED.outcome, logged_at = EXCLUDED.logged_at;
      RETURN v_out;
    END IF;
  END IF;
  IF v_wrote THEN
    INSERT INTO request_log AS g (conn, request_id, outcome, logged_at) VALUES (p_conn, p_request, v_out, clock_timestamp())
      ON CONFLICT (conn) DO UPDATE SET request_id = EXCLUDED.request_id, outcome = EXCLUDED.outcome, logged_at = EXCLUDED.logged_at;
  END IF;
  RETURN v_out;
END
$fn$;

CREATE FUNCTION testbed_renew(p_conn uuid, p_request uuid, p_scope text, p_holder text, p_token double precision,
                              p_ttl bigint, p_reject text, p_now bigint)
RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
  v_last bigint;
  v_now bigint;
  v_holder text;
  v_token bigint;
  v_acquired bigint;
  v_expires bigint;
  v_out json;
BEGIN
  IF p_reject IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock_shared(7204771, hashtext(current_schema()));
    RETURN json_build_object('kind', 'Rejected', 'reason', p_reject);
  END IF;
  SELECT (SELECT c.last_token FROM scope_counter c WHERE c.scope = p_scope FOR UPDATE) INTO v_last
      FROM (SELECT pg_advisory_xact_lock_shared(7204771, hashtext(current_schema()))) gate;
  IF v_last IS NULL THEN
    RETURN json_build_object('kind', 'Stale', 'currentToken', NULL);
  END IF;
  SELECT coalesce(p_now, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint), l.holder, l.token, l.acquired_at, l.expires_at
    INTO v_now, v_holder, v_token, v_acquired, v_expires
    FROM (SELECT 1) one LEFT JOIN lease l ON l.scope = p_scope;
  IF v_token IS NULL OR v_token <> p_token OR v_holder <> p_holder THEN
    RETURN json_build_object('kind', 'Stale', 'currentToken', CASE WHEN v_now < v_expires THEN v_token END);
  END IF;
  IF v_now >= v_expires THEN
    RETURN json_build_object('kind', 'Expired');
  END IF;
  v_out := json_build_object('kind', 'Renewed', 'token', v_token, 'acquiredAt', v_acquired, 'expiresAt', v_now + p_ttl);
  WITH u AS (UPDATE lease l SET expires_at = v_now + p_ttl WHERE l.scope = p_scope)
  INSERT INTO request_log AS g (conn, request_id, outcome, logged_at) VALUES (p_conn, p_request, v_out, clock_timestamp())
      ON CONFLICT (conn) DO UPDATE SET request_id = EXCLUDED.request_id, outcome = EXCLUDED.outcome, logged_at = EXCLUDED.logged_at;
  RETURN v_out;
END
$fn$;

CREATE FUNCTION testbed_release(p_conn uuid, p_request uuid, p_scope text, p_holder text, p_token double precision,
                                p_now bigint)
RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
  v_last bigint;
  v_now bigint;
  v_holder text;
  v_token bigint;
  v_expires bigint;
  v_out json;
BEGIN
  SELECT (SELECT c.last_token FROM scope_counter c WHERE c.scope = p_scope FOR UPDATE) INTO v_last
      FROM (SELECT pg_advisory_xact_lock_shared(7204771, hashtext(current_schema()))) gate;
  IF v_last IS NULL THEN
    RETURN json_build_object('kind', 'Stale', 'currentToken', NULL);
  END IF;
  SELECT coalesce(p_now, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint), l.holder, l.token, l.expires_at
    INTO v_now, v_holder, v_token, v_expires
    FROM (SELECT 1) one LEFT JOIN lease l ON l.scope = p_scope;
  IF v_expires IS NULL OR v_now >= v_expires THEN
    RETURN json_build_object('kind', 'Stale', 'currentToken', NULL);
  END IF;
  IF v_token <> p_token OR v_holder <> p_holder THEN
    RETURN json_build_object('kind', 'Stale', 'currentToken', v_token);
  END IF;
  v_out := json_build_object('kind', 'Released', 'token', v_token);
  WITH d AS (DELETE FROM lease l WHERE l.scope = p_scope),
       t AS (INSERT INTO tombstone (seq, scope, holder, token, ended_at, cause)
             VALUES (nextval('tombstone_seq'), p_scope, v_holder, v_token, v_now, 'released'))
  INSERT INTO request_log AS g (conn, request_id, outcome, logged_at) VALUES (p_conn, p_request, v_out, clock_timestamp())
      ON CONFLICT (conn) DO UPDATE SET request_id = EXCLUDED.request_id, outcome = EXCLUDED.outcome, logged_at = EXCLUDED.logged_at;
  RETURN v_out;
END
$fn$;

CREATE FUNCTION testbed_mutate(p_conn uuid, p_request uuid, p_scope text, p_aggregate text, p_holder text,
                               p_token double precision, p_expected double precision, p_role text,
                               p_epoch double precision, p_now bigint)
RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
  v_last bigint;
  v_wrote boolean := false;
  v_fenced double precision;
  v_now bigint;
  v_holder text;
  v_token bigint;
  v_expires bigint;
  v_version bigint;
  v_out json;
BEGIN
  IF p_role IS NULL THEN
    SELECT (SELECT c.last_token FROM scope_counter c WHERE c.scope = p_scope FOR UPDATE) INTO v_last
      FROM (SELECT pg_advisory_xact_lock_shared(7204771, hashtext(current_schema()))) gate;
  ELSE
    PERFORM pg_advisory_xact_lock_shared(7204771, hashtext(current_schema()));
    v_fenced := testbed_guard(p_role, p_epoch);
    IF v_fenced IS NOT NULL THEN
      RETURN json_build_object('kind', 'Fenced', 'currentEpoch', v_fenced);
    END IF;
    v_wrote := true;
    SELECT c.last_token INTO v_last FROM scope_counter c WHERE c.scope = p_scope FOR UPDATE;
  END IF;
  IF v_last IS NULL THEN
    v_out := json_build_object('kind', 'StaleFence', 'currentToken', NULL);
  ELSE
    SELECT coalesce(p_now, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint), l.holder, l.token, l.expires_at,
           (SELECT a.version FROM aggregate a WHERE a.scope = p_scope AND a.aggregate = p_aggregate)
      INTO v_now, v_holder, v_token, v_expires, v_version
      FROM (SELECT 1) one LEFT JOIN lease l ON l.scope = p_scope;
    IF v_expires IS NULL OR v_now >= v_expires THEN
      v_out := json_build_object('kind', 'StaleFence', 'currentToken', NULL);
    ELSIF v_token <> p_token OR v_holder <> p_holder THEN
      v_out := json_build_object('kind', 'StaleFence', 'currentToken', v_token);
    ELSE
      v_version := coalesce(v_version, 0);
      IF v_version <> p_expected THEN
        v_out := json_build_object('kind', 'StaleVersion', 'currentVersion', v_version);
      ELSE
        v_out := json_build_object('kind', 'Accepted', 'version', v_version + 1);
        WITH a AS (INSERT INTO aggregate (scope, aggregate, version, last_token) VALUES (p_scope, p_aggregate, v_version + 1, v_token)
                   ON CONFLICT (scope, aggregate) DO UPDATE SET version = EXCLUDED.version, last_token = EXCLUDED.last_token)
        INSERT INTO request_log AS g (conn, request_id, outcome, logged_at) VALUES (p_conn, p_request, v_out, clock_timestamp())
      ON CONFLICT (conn) DO UPDATE SET request_id = EXCLUDED.request_id, outcome = EXCLUDED.outcome, logged_at = EXCLUDED.logged_at;
        RETURN v_out;
      END IF;
    END IF;
  END IF;
  IF v_wrote THEN
    INSERT INTO request_log AS g (conn, request_id, outcome, logged_at) VALUES (p_conn, p_request, v_out, clock_timestamp())
      ON CONFLICT (conn) DO UPDATE SET request_id = EXCLUDED.request_id, outcome = EXCLUDED.outcome, logged_at = EXCLUDED.logged_at;
  END IF;
  RETURN v_out;
END
$fn$;
`,
};
