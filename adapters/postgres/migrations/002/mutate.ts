// Migration 2 of the PostgreSQL store (../002-one-statement-commands.ts): testbed_mutate: the protected write Mutate in one statement.

import { commandFunction, GATE, GATE_THEN_SCOPE, LOG_IF_GUARD_WROTE, LOG_OUTCOME } from './request-log.ts';

export const MUTATE = commandFunction(
  'mutate',
  'p_scope text, p_aggregate text, p_holder text, p_token double precision, p_expected double precision, p_role text, p_epoch double precision, p_now bigint',
  [
    'v_last bigint',
    'v_wrote boolean := false',
    'v_fenced double precision',
    'v_now bigint',
    'v_holder text',
    'v_token bigint',
    'v_expires bigint',
    'v_version bigint',
  ],
  `
  IF p_role IS NULL THEN
    ${GATE_THEN_SCOPE}
  ELSE
    PERFORM ${GATE};
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
        ${LOG_OUTCOME}
        RETURN v_out;
      END IF;
    END IF;
  END IF;
  ${LOG_IF_GUARD_WROTE}
`,
);
