// Migration 2 of the PostgreSQL store (../002-one-statement-commands.ts): testbed_renew: Renew in one statement.

import { commandFunction, GATE, GATE_THEN_SCOPE, LOG_OUTCOME } from './request-log.ts';

export const RENEW = commandFunction(
  'renew',
  'p_scope text, p_holder text, p_token double precision, p_ttl bigint, p_reject text, p_now bigint',
  [
    'v_last bigint',
    'v_now bigint',
    'v_holder text',
    'v_token bigint',
    'v_acquired bigint',
    'v_expires bigint',
  ],
  `
  IF p_reject IS NOT NULL THEN
    PERFORM ${GATE};
    RETURN json_build_object('kind', 'Rejected', 'reason', p_reject);
  END IF;
  ${GATE_THEN_SCOPE}
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
  ${LOG_OUTCOME}
  RETURN v_out;
`,
);
