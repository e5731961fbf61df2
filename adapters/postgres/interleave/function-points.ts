// Scheduling points inside server-side functions (controlled interleaving, docs/ARCHITECTURE.md).
// The statement gate holds a session's statements at the wire, so a call of a PL/pgSQL function
// is one step: two statements of one function cannot be interleaved with another session's. Here
// every PL/pgSQL function of a run's schema is replaced by a copy that calls
// `<schema>.testbed_yield(point)` before each of its statements (plpgsql-rewrite.ts), and a
// scheduler connection decides, with advisory locks, when a session passes its next yield.
//
// The yield protocol. Each backend counts the yields it executes in the session setting
// `testbed.step`: the n-th yield of the current client statement (STATEMENT_SETTING) is step n,
// the first being step 1. At step n the yield
//   1. records n (set_config('testbed.step', n, false)),
//   2. takes the marker `pg_advisory_lock_shared(pid, -point)`, which tells a probe which point
//      the session is at (pg_locks: granted, objid = 2^32 - point),
//   3. takes and at once releases `pg_advisory_lock(pid, n)`, then releases the marker.
// pid is the session's pg_backend_pid(). Both keys are the two-int4 form: pg_locks shows them as
// locktype 'advisory', classid = pid, objid = the second key (as an unsigned oid), objsubid = 2.
// Nothing else takes keys with classid = a backend pid: the store's recovery gate is
// (7204771, hashtext(schema)), and a Linux pid never exceeds 2^22 = 4194304; the migrators' lock
// is the one-bigint form (objsubid 1), another key space. Steps are 1..2^31-1 and markers
// 2^31..2^32-1 as objids, so the two never meet either.
//
// A scheduler connection that holds (pid, n) keeps the session waiting at its n-th yield. To let
// it take one step it takes (pid, n+1), then releases (pid, n), then waits (polling pg_locks)
// until the session waits at a yield again, waits for some other lock, or its statement has
// returned (stepPast). Each step is the statements between two yields, run while every other
// controlled session waits, so which session runs is always the scheduler's choice. With no
// scheduler holding the key, a yield passes at once: an instrumented function is harmless outside
// a controlled batch (it costs a few lock-table operations per statement).
//
// What the numbering does not survive: the setting is transactional, so when a transaction, or a
// PL/pgSQL block with an EXCEPTION clause (a subtransaction), rolls back, the count goes back to
// what it was when it began. The session then repeats step numbers it has passed; none of them is
// held (the scheduler holds only the next one), so it runs on, still alone, until it reaches the
// held step: the scheduler's one step covers more statements, the same ones in every run. Since
// the count starts again with every client statement, a scheduler holds (pid, 1) before it lets a
// session's statement go, whatever the session ran before. The yield releases its marker
// if its wait fails (a cancel, a lock timeout), and the step's key if it was taken, so no lock is left behind.
//
// The wait at a yield is the scheduler's, not a lock the store waits for: the function runs with
// `lock_timeout = 0` (restored as it returns), so a store's own lock_timeout never ends it at a
// time the machine decides. A store's statement_timeout still counts the wait (it times the whole
// client statement); under --interleave *-functions a store should not set one.
//
// Notes for the statement gate: a session waiting at a yield waits for an advisory lock held by
// the scheduler's connection (pg_blocking_pids names it), and must not be taken for a session
// blocked by another session. A scheduler must release its keys (or close its connection) when it
// is done: a later backend with the same pid would otherwise wait at its yields.

import type pg from 'pg';
import { assertSchemaName } from '../schema.ts';
import { instrumentDefinition, quoteIdent, YIELD_FUNCTION, type PointLine } from './plpgsql-rewrite.ts';

export { instrumentDefinition, yieldCall, YIELD_FUNCTION, type PointLine, type Rewrite } from './plpgsql-rewrite.ts';

export interface InstrumentedFunction {
  readonly name: string;
  /** `name(identity arguments)`, as pg_get_function_identity_arguments prints them. */
  readonly signature: string;
  /** How many yields the copy has (its points are lines[0].point .. lines[0].point + points - 1). */
  readonly points: number;
  /** Per point: its number (unique in the schema), 1-based line in the function body, the statement's kind and a short text of it. */
  readonly lines: ReadonlyArray<PointLine>;
  /** pg_get_functiondef of the function before it was replaced (running it restores the function). */
  readonly original: string;
}

export interface SkippedFunction {
  readonly name: string;
  readonly signature: string;
  readonly reason: string;
}

export interface Instrumentation {
  readonly functions: ReadonlyArray<InstrumentedFunction>;
  readonly skipped: ReadonlyArray<SkippedFunction>;
}

/** The session setting that counts a backend's yields. */
export const STEP_SETTING = 'testbed.step';

/**
 * The session setting that names the client statement the count belongs to: the count starts
 * again at 1 with every statement a client sends (its `statement_timestamp()`), so a scheduler
 * holds (pid, 1) before it lets a session's statement reach the server, whatever came before.
 */
export const STATEMENT_SETTING = 'testbed.statement';

/** Run on a session's own connection: its next yield is step 1 again. */
export const RESET_STEPS_SQL = `SELECT pg_catalog.set_config('${STEP_SETTING}', '0', false)`;

/** The yield function: every name qualified, since a run's search_path may put its schema before pg_catalog. */
export function yieldFunctionSql(schema: string): string {
  return `CREATE OR REPLACE FUNCTION ${quoteIdent(schema)}.${YIELD_FUNCTION}(point integer) RETURNS boolean
LANGUAGE plpgsql VOLATILE SET lock_timeout = 0 AS $testbed_yield$
DECLARE
  statement text := pg_catalog.statement_timestamp()::text;
  step integer := 1;
  me integer := pg_catalog.pg_backend_pid();
BEGIN
  -- A scheduling point (adapters/postgres/interleave/function-points.ts): waits while a scheduler holds (pid, step).
  IF pg_catalog.current_setting('${STATEMENT_SETTING}', true) IS NOT DISTINCT FROM statement THEN
    step := coalesce(nullif(pg_catalog.current_setting('${STEP_SETTING}', true), ''), '0')::integer + 1;
  ELSE
    PERFORM pg_catalog.set_config('${STATEMENT_SETTING}', statement, false);
  END IF;
  PERFORM pg_catalog.set_config('${STEP_SETTING}', step::text, false);
  -- Session-level locks outlive a cancel: whichever of them a cancel (between any two of these
  -- statements) leaves held is let go before the error goes on.
  BEGIN
    PERFORM pg_catalog.pg_advisory_lock_shared(me, -point);
    PERFORM pg_catalog.pg_advisory_lock(me, step);
    PERFORM pg_catalog.pg_advisory_unlock(me, step);
    PERFORM pg_catalog.pg_advisory_unlock_shared(me, -point);
  EXCEPTION WHEN query_canceled OR others THEN
    IF EXISTS (SELECT 1 FROM pg_catalog.pg_locks l WHERE l.pid = me AND l.locktype = 'advisory' AND l.objsubid = 2 AND l.classid::bigint = me AND l.objid::bigint = step AND l.granted AND l.mode = 'ExclusiveLock') THEN
      PERFORM pg_catalog.pg_advisory_unlock(me, step);
    END IF;
    IF EXISTS (SELECT 1 FROM pg_catalog.pg_locks l WHERE l.pid = me AND l.locktype = 'advisory' AND l.objsubid = 2 AND l.classid::bigint = me AND l.objid::bigint = (-point)::bigint + 4294967296 AND l.granted AND l.mode = 'ShareLock') THEN
      PERFORM pg_catalog.pg_advisory_unlock_shared(me, -point);
    END IF;
    RAISE;
  END;
  RETURN false;
END
$testbed_yield$`;
}

interface FunctionRow {
  name: string;
  args: string;
  prokind: string;
  definition: string | null;
}

/**
 * Reads every function of `schema` (pg_proc, pg_get_functiondef), installs the yield function
 * `<schema>.testbed_yield(point integer)` and replaces each PL/pgSQL function with a copy that
 * calls it before every statement. Points are numbered 1, 2, ... across the schema, functions in
 * order of name and arguments, statements in source order. One transaction on `client`; a copy
 * the server rejects is rolled back to its savepoint and listed as skipped.
 */
export async function instrumentFunctions(client: pg.ClientBase, schema: string): Promise<Instrumentation> {
  assertSchemaName(schema);
  const functions: InstrumentedFunction[] = [];
  const skipped: SkippedFunction[] = [];
  await client.query('BEGIN');
  try {
    await client.query(yieldFunctionSql(schema));
    const { rows } = await client.query<FunctionRow>(
      `SELECT p.proname AS name, pg_catalog.pg_get_function_identity_arguments(p.oid) AS args, p.prokind,
              CASE WHEN p.prokind IN ('f', 'p') THEN pg_catalog.pg_get_functiondef(p.oid) END AS definition
         FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = $1 AND p.proname <> $2
        ORDER BY p.proname, args`,
      [schema, YIELD_FUNCTION],
    );
    // Numbers go on from the highest point already in the schema: a function instrumented later
    // gets points of its own.
    let next = 1 + Math.max(0, ...rows.flatMap((row) => [...(row.definition ?? '').matchAll(/testbed_yield\((\d+)\)/g)].map((m) => Number(m[1]))));
    for (const row of rows) {
      const signature = `${row.name}(${row.args})`;
      if (row.definition === null) {
        skipped.push({ name: row.name, signature, reason: row.prokind === 'a' ? 'an aggregate' : 'a window function' });
        continue;
      }
      const rewrite = await instrumentDefinition(row.definition, schema, next);
      if ('reason' in rewrite) {
        skipped.push({ name: row.name, signature, reason: rewrite.reason });
        continue;
      }
      await client.query('SAVEPOINT testbed_instrument');
      try {
        await client.query(rewrite.sql);
        await client.query('RELEASE SAVEPOINT testbed_instrument');
      } catch (error) {
        await client.query('ROLLBACK TO SAVEPOINT testbed_instrument');
        skipped.push({ name: row.name, signature, reason: `the server rejects the instrumented copy: ${(error as Error).message}` });
        continue;
      }
      functions.push({ name: row.name, signature, points: rewrite.lines.length, lines: rewrite.lines, original: row.definition });
      next += rewrite.lines.length;
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return { functions, skipped };
}

// ---- The scheduler's side -----------------------------------------------------------------------

/** objid of a marker (pid, -point) in pg_locks: 2^32 - point. Steps are below 2^31. */
const MARKER_BASE = 2 ** 32;
const FIRST_MARKER = 2 ** 31;

/** Holds (pid, step) on the scheduler's connection: the session will wait at its step-th yield. */
export async function holdPoint(scheduler: pg.ClientBase, pid: number, step: number): Promise<void> {
  await scheduler.query('SELECT pg_catalog.pg_advisory_lock($1::integer, $2::integer)', [pid, step]);
}

/** Holds a fresh session's first yield (step 1). */
export function holdFirstPoint(scheduler: pg.ClientBase, pid: number): Promise<void> {
  return holdPoint(scheduler, pid, 1);
}

/** Releases (pid, step); a session waiting there passes it (and every later yield, unless the next step is held). */
export async function releasePoint(scheduler: pg.ClientBase, pid: number, step: number): Promise<void> {
  const { rows } = await scheduler.query<{ released: boolean }>('SELECT pg_catalog.pg_advisory_unlock($1::integer, $2::integer) AS released', [pid, step]);
  if (rows[0]?.released !== true) throw new Error(`the scheduler does not hold step ${step} of session ${pid}`);
}

export interface WaitingPoint {
  /** The session's yield count: the key (pid, step) it waits for. */
  readonly step: number;
  /** The point it waits at (null if its marker is not visible: never with this module's yield). */
  readonly point: number | null;
}

/** The sessions among `pids` that wait at a yield now, read from pg_locks. */
export async function waitingPoints(probe: pg.ClientBase, pids: ReadonlyArray<number>): Promise<Map<number, WaitingPoint>> {
  const { rows } = await probe.query<{ pid: number; objid: string; mode: string; granted: boolean }>(
    `SELECT pid, objid::bigint AS objid, mode, granted FROM pg_catalog.pg_locks
      WHERE locktype = 'advisory' AND objsubid = 2 AND classid::bigint = pid AND pid = ANY($1::integer[])`,
    [pids],
  );
  const waiting = new Map<number, WaitingPoint>();
  for (const row of rows) {
    const objid = Number(row.objid);
    if (row.granted || row.mode !== 'ExclusiveLock' || objid >= FIRST_MARKER) continue;
    const marker = rows.find((m) => m.pid === row.pid && m.granted && m.mode === 'ShareLock' && Number(m.objid) >= FIRST_MARKER);
    waiting.set(row.pid, { step: objid, point: marker === undefined ? null : MARKER_BASE - Number(marker.objid) });
  }
  return waiting;
}

export type SessionState =
  /** Waiting at a yield. */
  | { readonly kind: 'point'; readonly step: number; readonly point: number | null }
  /** Waiting for a lock that is not a yield's (a row, a transaction, a relation...). */
  | { readonly kind: 'blocked' }
  /** Its statement has returned (as the caller's `returned` says). */
  | { readonly kind: 'returned' };

export interface AwaitOptions {
  /** True once the session's statement has returned (its promise settled). */
  readonly returned: () => boolean;
  /** The connection that reads pg_locks (default: the scheduler's). */
  readonly probe?: pg.ClientBase;
  readonly signal?: AbortSignal;
}

/**
 * Polls pg_locks until the session waits at a yield or for another lock, or its statement has
 * returned. No verdict depends on time: only on what the server shows; the pause between looks
 * only spares the server.
 */
export async function awaitSession(probe: pg.ClientBase, pid: number, options: Omit<AwaitOptions, 'probe'>): Promise<SessionState> {
  for (;;) {
    if (options.returned()) return { kind: 'returned' };
    options.signal?.throwIfAborted();
    const { rows } = await probe.query<{ locktype: string; classid: string | null; objid: string | null; objsubid: number | null; mode: string; granted: boolean }>(
      'SELECT locktype, classid::bigint AS classid, objid::bigint AS objid, objsubid, mode, granted FROM pg_catalog.pg_locks WHERE pid = $1',
      [pid],
    );
    const waiting = rows.find((row) => !row.granted);
    if (waiting !== undefined) {
      const objid = Number(waiting.objid);
      const atYield = waiting.locktype === 'advisory' && waiting.objsubid === 2 && Number(waiting.classid) === pid && waiting.mode === 'ExclusiveLock' && objid < FIRST_MARKER;
      if (!atYield) return { kind: 'blocked' };
      const marker = rows.find((row) => row.locktype === 'advisory' && row.objsubid === 2 && Number(row.classid) === pid && row.granted && row.mode === 'ShareLock' && Number(row.objid) >= FIRST_MARKER);
      return { kind: 'point', step: objid, point: marker === undefined ? null : MARKER_BASE - Number(marker.objid) };
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/**
 * One step of a session waiting at yield `step`: holds step + 1, releases step, and waits until
 * the session is at its next yield, blocked, or returned.
 */
export async function stepPast(scheduler: pg.ClientBase, pid: number, step: number, options: AwaitOptions): Promise<SessionState> {
  await holdPoint(scheduler, pid, step + 1);
  await releasePoint(scheduler, pid, step);
  return awaitSession(options.probe ?? scheduler, pid, options);
}
