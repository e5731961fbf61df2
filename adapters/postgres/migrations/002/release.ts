// Migration 2 of the PostgreSQL store (../002-one-statement-commands.ts): testbed_release: Release in one statement.

import { commandFunction, GATE_THEN_SCOPE, LOG_OUTCOME } from './request-log.ts';

export const RELEASE = commandFunction(
  'release',
  'p_scope text, p_holder text, p_token double precision, p_now bigint',
  [
    'v_last bigint',
    'v_now bigint',
    'v_holder text',
    'v_token bigint',
    'v_expires bigint',
  ],
  `
  ${GATE_THEN_SCOPE}
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
  ${LOG_OUTCOME}
  RETURN v_out;
`,
);
