// Migration 2 of the PostgreSQL store (../002-one-statement-commands.ts): testbed_guard: step 1 of Acquire and Mutate, the role guard (seed 001 §92–§95).

export const GUARD = `
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
`;
