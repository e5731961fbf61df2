// Migration 2 of the PostgreSQL store (../002-one-statement-commands.ts): testbed_acquire: Acquire in one statement.

import { commandFunction, GATE, GATE_THEN_SCOPE, LOG_IF_GUARD_WROTE, LOG_OUTCOME } from './request-log.ts';

export const ACQUIRE = commandFunction(
  'acquire',
  'p_scope text, p_holder text, p_ttl bigint, p_waiter text, p_role text, p_epoch double precision, p_reject text, p_now bigint',
  [
    'v_wrote boolean := false',
    'v_fenced double precision',
    'v_last bigint',
    'v_recovery bigint',
    'v_now bigint',
    'v_blocked text',
    'v_holder text',
    'v_token bigint',
    'v_expires bigint',
    'v_queued boolean',
  ],
  `
  IF p_role IS NULL AND p_reject IS NULL THEN
    -- The common case: gate, then scope lock, in one statement (the FROM item is evaluated
    -- before the select list's subquery locks the row).
    ${GATE_THEN_SCOPE}
  ELSE
    PERFORM ${GATE};
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
      ${LOG_OUTCOME}
      RETURN v_out;
    END IF;
  END IF;
  ${LOG_IF_GUARD_WROTE}
`,
);
