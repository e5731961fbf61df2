// Scheduling points inside server-side functions (adapters/postgres/interleave/function-points.ts):
// every PL/pgSQL function of the built-in store is instrumented with a yield before each
// statement and still answers as before; what cannot be instrumented is listed with a reason;
// the rewrite keeps FOUND, the row count and line numbers; and a scheduler connection stepping
// two sessions through a read-then-write function decides, with no timeout, whether an update
// is lost: alternately both read the same count, one after the other the count reaches 2.

import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import type { Store } from '../../adapters/port.ts';
import { createPostgresStore } from '../../adapters/postgres/store.ts';
import {
  awaitSession,
  holdFirstPoint,
  instrumentDefinition,
  instrumentFunctions,
  RESET_STEPS_SQL,
  STEP_SETTING,
  stepPast,
  waitingPoints,
  type SessionState,
} from '../../adapters/postgres/interleave/function-points.ts';
import type { Command } from '../../model/commands.ts';
import { usePostgres } from './fixture.ts';

const server = usePostgres();
const time = { now: () => 50_000 };
const open: Array<Store | pg.Client> = [];

afterEach(async () => {
  for (const thing of open.splice(0).reverse()) {
    if ('execute' in thing) await thing.close();
    else await thing.end();
  }
});

async function client(): Promise<pg.Client> {
  const connection = new pg.Client(server.server().connectionString);
  await connection.connect();
  open.push(connection);
  return connection;
}

async function store(schema: string, fastPath: boolean): Promise<Store> {
  const opened = await createPostgresStore({ connectionString: server.server().connectionString, schema, time, fastPath });
  open.push(opened);
  return opened;
}

/** Leases, a guard, a mutation, releases: every command function and most of their branches. */
const COMMANDS: Command[] = [
  { kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1000 },
  { kind: 'Acquire', scope: 's', holder: 'b', ttlMs: 1000 },
  { kind: 'Renew', scope: 's', holder: 'a', expectedToken: 1, ttlMs: 2000 },
  { kind: 'Renew', scope: 's', holder: 'b', expectedToken: 1, ttlMs: 2000 },
  { kind: 'Mutate', scope: 's', aggregate: 'g', holder: 'a', token: 1, expectedVersion: 0 },
  { kind: 'Mutate', scope: 's', aggregate: 'g', holder: 'a', token: 1, expectedVersion: 0 },
  { kind: 'Release', scope: 's', holder: 'a', token: 1 },
  { kind: 'Release', scope: 's', holder: 'a', token: 1 },
  { kind: 'Acquire', scope: 's', holder: 'b', ttlMs: 1000, guard: { role: 'r', epoch: 2 } },
  { kind: 'Acquire', scope: 't', holder: 'c', ttlMs: 1000, guard: { role: 'r', epoch: 1 } },
  { kind: 'Mutate', scope: 's', aggregate: 'g', holder: 'b', token: 2, expectedVersion: 1, guard: { role: 'r', epoch: 2 } },
  { kind: 'Inspect' },
];

describe('built-in store functions', () => {
  test.each([true, false])('every PL/pgSQL function is instrumented and the store answers as before (fastPath %s); LANGUAGE sql and PARALLEL SAFE are skipped with a reason', async (fastPath) => {
    const schema = server.freshSchema();
    const instrumentedStore = await store(schema, fastPath);
    await instrumentedStore.execute({ kind: 'Inspect' });
    const admin = await client();
    await admin.query(`CREATE FUNCTION ${schema}.plain_sql() RETURNS integer LANGUAGE sql AS 'SELECT 1'`);
    await admin.query(`CREATE FUNCTION ${schema}.parallel_safe(i integer) RETURNS integer LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$ BEGIN RETURN i; END $$`);
    const { rows: plpgsql } = await admin.query<{ proname: string }>(
      `SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang
        WHERE n.nspname = $1 AND l.lanname = 'plpgsql' AND p.proname <> 'parallel_safe' ORDER BY 1`,
      [schema],
    );
    const instrumentation = await instrumentFunctions(admin, schema);

    // Every PL/pgSQL function the store installs, each with at least one point, numbered 1.. across the schema.
    expect(plpgsql.length).toBeGreaterThanOrEqual(5);
    expect(instrumentation.functions.map((f) => f.name)).toEqual(plpgsql.map((row) => row.proname));
    let next = 1;
    for (const f of instrumentation.functions) {
      expect(f.points, f.signature).toBeGreaterThan(0);
      expect(f.lines.map((l) => l.point)).toEqual(Array.from({ length: f.points }, (_, i) => next + i));
      next += f.points;
      const { rows } = await admin.query<{ def: string }>(
        'SELECT pg_get_functiondef(p.oid) AS def FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 AND p.proname = $2',
        [schema, f.name],
      );
      expect(rows[0]!.def.split(`"${schema}".testbed_yield(`).length - 1, f.signature).toBe(f.points);
    }
    expect(instrumentation.skipped).toEqual([
      { name: 'parallel_safe', signature: 'parallel_safe(i integer)', reason: expect.stringMatching(/^PARALLEL SAFE/) },
      { name: 'plain_sql', signature: 'plain_sql()', reason: expect.stringMatching(/^LANGUAGE sql/) },
    ]);
    const acquire = instrumentation.functions.find((f) => f.name === 'testbed_acquire')!;
    expect(acquire.lines.some((l) => l.kind === 'execsql' && l.text.startsWith('INSERT INTO scope_counter'))).toBe(true);

    // The same commands give the same outcomes as on a store whose functions were not touched.
    const reference = await store(server.freshSchema(), fastPath);
    for (const command of COMMANDS) {
      expect(await instrumentedStore.execute(command), JSON.stringify(command)).toEqual(await reference.execute(command));
    }
    expect(await instrumentedStore.execute({ kind: 'Acquire', scope: 'u', holder: 'a', ttlMs: 1000 })).toMatchObject({ kind: 'Acquired', lease: { token: 1 } });

    // The yields run: testbed_guard called directly counts one step per statement it reaches
    // (IF, INSERT, IF, RETURN NULL; then IF, SELECT, RETURN for a negative epoch), the count
    // starting again with each client statement.
    await admin.query(`SET search_path TO ${schema}`);
    await admin.query(`SELECT ${schema}.testbed_guard('direct', 1)`);
    expect((await admin.query(`SELECT current_setting('${STEP_SETTING}') AS step`)).rows[0].step).toBe('4');
    await admin.query(`SELECT ${schema}.testbed_guard('direct', -1)`);
    expect((await admin.query(`SELECT current_setting('${STEP_SETTING}') AS step`)).rows[0].step).toBe('3');

    // Instrumenting twice adds nothing.
    const again = await instrumentFunctions(admin, schema);
    expect(again.functions).toEqual([]);
    expect(again.skipped.filter((s) => s.reason.startsWith('already instrumented')).map((s) => s.name)).toEqual(plpgsql.map((row) => row.proname));
  });
});

describe('the rewrite', () => {
  test('keeps FOUND, ROW_COUNT, labels, exception handlers and line numbers; several statements on a line each get a point; NULL gets none', async () => {
    const schema = server.freshSchema();
    const admin = await client();
    await admin.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.items (k integer); INSERT INTO ${schema}.items VALUES (1), (2), (3)`);
    await admin.query(`CREATE FUNCTION ${schema}.gnarly(p integer) RETURNS text LANGUAGE plpgsql AS $body$
DECLARE
  out text := '';
  n bigint;
  v integer := 0;
  r record;
  arr integer[] := ARRAY[1, 2, 3];
  x integer;
  c CURSOR FOR SELECT 1 AS begin;
BEGIN
  UPDATE ${schema}.items SET k = k WHERE false; GET DIAGNOSTICS n = ROW_COUNT; out := out || 'found=' || FOUND || ' rows=' || n;
  UPDATE ${schema}.items SET k = k; IF FOUND THEN GET DIAGNOSTICS n = ROW_COUNT; out := out || ' updated=' || n; END IF;
  <<outer>>
  DECLARE
    inner_v text := 'é—日本'; -- not ASCII; then a comment with ; THEN END
  BEGIN
    out := out || ' ' || inner_v; /* ; ELSE */ NULL;
  END outer;
  IF p = 1 THEN out := out || ' one'; ELSIF p = 2 THEN out := out || ' two'; ELSE out := out || ' other'; END IF;
  CASE p WHEN 1 THEN out := out || ' c1'; ELSE out := out || ' c?'; END CASE;
  CASE WHEN p > 0 THEN v := (CASE WHEN p > 1 THEN 2 ELSE 1 END); ELSE NULL; END CASE;
  <<l>> WHILE v < 5 LOOP v := v + 1; CONTINUE l WHEN v = 3; out := out || ' w' || v; END LOOP l;
  FOREACH x IN ARRAY arr LOOP out := out || ' a' || x; END LOOP;
  FOR r IN SELECT k FROM ${schema}.items ORDER BY k LOOP out := out || ' k' || r.k; END LOOP;
  FOR i IN REVERSE 2..1 LOOP NULL; END LOOP;
  LOOP EXIT; END LOOP;
  BEGIN
    v := 1 / (p - p);
  EXCEPTION
    WHEN division_by_zero THEN out := out || ' div0'; PERFORM 1 WHERE false; out := out || ' ' || FOUND;
  END;
  IF p = 99 THEN RAISE EXCEPTION 'boom'; END IF;
  EXECUTE format('SELECT count(*) FROM %I.items', '${schema}') INTO n; out := out || ' n=' || n;
  RETURN out || ' $$ ; END';
END
$body$`);
    const call = async (p: number): Promise<string> => {
      const { rows } = await admin.query(`SELECT ${schema}.gnarly($1) AS out`, [p]);
      return rows[0].out as string;
    };
    const failure = async (): Promise<string> => {
      const error = (await admin.query(`SELECT ${schema}.gnarly(99)`).catch((e: unknown) => e)) as pg.DatabaseError;
      return error.where ?? '';
    };
    const before = [await call(1), await call(2), await call(3)];
    expect(before[0]).toBe('found=false rows=0 updated=3 é—日本 one c1 w2 w4 w5 a1 a2 a3 k1 k2 k3 div0 false n=3 $$ ; END');
    const whereBefore = await failure();
    expect(whereBefore).toMatch(/line 32 at RAISE/);

    // A procedure that commits, and a trigger function, are instrumented too.
    await admin.query(`CREATE TABLE ${schema}.other (k integer);
      CREATE PROCEDURE ${schema}.two_transactions() LANGUAGE plpgsql AS $$ BEGIN INSERT INTO ${schema}.other VALUES (1); COMMIT; INSERT INTO ${schema}.other VALUES (2); END $$;
      CREATE FUNCTION ${schema}.times_ten() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.k := NEW.k * 10; RETURN NEW; END $$;
      CREATE TRIGGER times_ten BEFORE INSERT ON ${schema}.other FOR EACH ROW EXECUTE FUNCTION ${schema}.times_ten();`);

    const { functions, skipped } = await instrumentFunctions(admin, schema);
    expect(skipped).toEqual([]);
    expect(functions.map((f) => [f.name, f.points])).toEqual([['gnarly', 39], ['times_ten', 2], ['two_transactions', 3]]);
    const gnarly = functions.find((f) => f.name === 'gnarly');
    expect(gnarly!.lines.filter((l) => l.line === 11).map((l) => l.kind)).toEqual(['execsql', 'getdiag', 'assign']);
    expect(gnarly!.lines.filter((l) => l.line === 12).map((l) => l.text)).toEqual([
      `UPDATE ${schema}.items SET k = k;`,
      'IF FOUND THEN',
      'GET DIAGNOSTICS n = ROW_COUNT;',
      "out := out || ' updated=' || n;",
    ]);
    expect(gnarly!.lines.find((l) => l.kind === 'block')).toMatchObject({ line: 16, text: expect.stringMatching(/^<<outer>> DECLARE inner_v text := 'é—日本'; BEGIN$/) });
    expect(gnarly!.lines.filter((l) => l.line === 17).map((l) => l.text)).toEqual(["out := out || ' ' || inner_v;"]);
    expect(gnarly!.lines.filter((l) => l.line === 22).map((l) => l.text)).toEqual(['<<l>> WHILE v < 5 LOOP', 'v := v + 1;', 'CONTINUE l WHEN v = 3;', "out := out || ' w' || v;"]);
    expect(gnarly!.lines.filter((l) => l.line === 25).map((l) => l.kind)).toEqual(['fori']);
    expect(gnarly!.points).toBe(gnarly!.lines.length);
    // Counted by hand: 3 on line 11, 4 on 12, the block (16), 1 on 17 (its NULL: none), 4 on 19,
    // 3 on 20, 2 on 21 (ELSE NULL: none), 4 on 22, 2 on 23 and 24, 1 on 25, 2 on 26, the block (27),
    // 1 on 28, 3 on 30, 2 on 32 and 33, 1 on 34.
    expect(gnarly!.points).toBe(39);

    // Same answers (FOUND and ROW_COUNT are the statements' own, not the yields'), same error line.
    expect([await call(1), await call(2), await call(3)]).toEqual(before);
    expect(await failure()).toBe(whereBefore);
    await admin.query(RESET_STEPS_SQL);
    await admin.query(`CALL ${schema}.two_transactions()`);
    expect((await admin.query(`SELECT k FROM ${schema}.other ORDER BY k`)).rows).toEqual([{ k: 10 }, { k: 20 }]);
    expect((await admin.query(`SELECT current_setting('${STEP_SETTING}') AS step`)).rows[0].step).toBe('7'); // 3 in the procedure, 2 in each trigger call
  });

  test('pure rewrite: reasons instead of guesses', async () => {
    const definition = (language: string, body: string): string => `CREATE OR REPLACE FUNCTION s.f()\n RETURNS integer\n LANGUAGE ${language}\nAS $function$${body}$function$\n`;
    expect(await instrumentDefinition(definition('sql', 'SELECT 1'), 's')).toEqual({ reason: expect.stringMatching(/^LANGUAGE sql/) });
    expect(await instrumentDefinition(definition('plpgsql', 'BEGIN RETURN 1 END'), 's')).toEqual({ reason: expect.stringMatching(/compiler rejects it: syntax error/) });
    expect(await instrumentDefinition(definition('plpgsql', 'BEGIN NULL; END'), 's')).toEqual({ reason: 'the body has no statement' });
    // A statement this reader cannot follow (BEGIN ATOMIC inside a statement): a reason, not a wrong copy.
    const atomic = await instrumentDefinition(definition('plpgsql', 'BEGIN CREATE FUNCTION g() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END; RETURN 1; END'), 's');
    expect(atomic).toEqual({ reason: expect.stringMatching(/^its statements could not be located/) });
    const simple = await instrumentDefinition(definition('plpgsql', 'BEGIN IF true THEN RETURN 1; END IF; RETURN 2; END'), 's', 7);
    expect(simple).toEqual({
      sql: definition('plpgsql', 'BEGIN IF "s".testbed_yield(7) THEN END IF; IF true THEN IF "s".testbed_yield(8) THEN END IF; RETURN 1; END IF; IF "s".testbed_yield(9) THEN END IF; RETURN 2; END'),
      lines: [
        { point: 7, line: 1, kind: 'if', text: 'IF true THEN' },
        { point: 8, line: 1, kind: 'return', text: 'RETURN 1;' },
        { point: 9, line: 1, kind: 'return', text: 'RETURN 2;' },
      ],
    });
  });
});

describe('scheduling inside a function', () => {
  type Policy = 'alternate' | 'serial';

  interface Run {
    /** Per step: the session, the point it passed, and where it went. */
    readonly trace: string[];
    readonly reads: number[];
    readonly counter: number;
  }

  const describeState = (state: SessionState): string => (state.kind === 'point' ? `@${state.point}` : state.kind);

  async function run(schema: string, policy: Policy): Promise<Run> {
    const admin = await client();
    await admin.query(`UPDATE ${schema}.counter SET n = 0`);
    const scheduler = await client();
    const sessions = [
      { name: 's1', connection: await client() },
      { name: 's2', connection: await client() },
    ].map((session) => ({ ...session, pid: 0, done: false, result: undefined as Promise<number> | undefined }));
    for (const session of sessions) {
      session.pid = Number((await session.connection.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
      await holdFirstPoint(scheduler, session.pid);
    }
    for (const session of sessions) {
      session.result = session.connection.query(`SELECT ${schema}.read_then_write() AS v`).then((r) => Number(r.rows[0].v));
      session.result.then(
        () => (session.done = true),
        () => (session.done = true),
      );
    }
    const trace: string[] = [];
    let last = -1;
    for (;;) {
      const states = new Map<string, SessionState>();
      for (const session of sessions) states.set(session.name, await awaitSession(scheduler, session.pid, { returned: () => session.done }));
      if (trace.length === 0) {
        // Both calls wait at their first point before anything is released.
        const waiting = await waitingPoints(scheduler, sessions.map((s) => s.pid));
        expect([...waiting.values()]).toEqual([{ step: 1, point: 1 }, { step: 1, point: 1 }]);
      }
      const ready = sessions.map((s, i) => ({ s, i, state: states.get(s.name)! })).filter(({ state }) => state.kind === 'point');
      if (ready.length === 0) {
        if (sessions.every((s) => s.done)) break;
        throw new Error(`no session can step: ${[...states].map(([n, s]) => `${n} ${s.kind}`).join(', ')}`);
      }
      const chosen = policy === 'serial' ? ready[0]! : (ready.find(({ i }) => i > last) ?? ready[0]!);
      last = chosen.i;
      const at = chosen.state as Extract<SessionState, { kind: 'point' }>;
      const after = await stepPast(scheduler, chosen.s.pid, at.step, { returned: () => chosen.s.done });
      trace.push(`${chosen.s.name}@${at.point}->${describeState(after)}`);
    }
    const reads = await Promise.all(sessions.map((s) => s.result!));
    const counter = Number((await admin.query(`SELECT n FROM ${schema}.counter`)).rows[0].n);
    return { trace, reads, counter };
  }

  test('alternating the two sessions statement by statement loses an update; one after the other does not; each schedule replays exactly', async () => {
    const schema = server.freshSchema();
    const admin = await client();
    await admin.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.counter (id integer PRIMARY KEY, n integer NOT NULL); INSERT INTO ${schema}.counter VALUES (1, 0)`);
    await admin.query(`CREATE FUNCTION ${schema}.read_then_write() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v integer;
BEGIN
  SELECT n INTO v FROM ${schema}.counter WHERE id = 1;
  UPDATE ${schema}.counter SET n = v + 1 WHERE id = 1;
  RETURN v;
END
$$`);
    const { functions } = await instrumentFunctions(admin, schema);
    expect(functions[0]!.lines).toEqual([
      { point: 1, line: 5, kind: 'execsql', text: `SELECT n INTO v FROM ${schema}.counter WHERE id = 1;` },
      { point: 2, line: 6, kind: 'execsql', text: `UPDATE ${schema}.counter SET n = v + 1 WHERE id = 1;` },
      { point: 3, line: 7, kind: 'return', text: 'RETURN v;' },
    ]);

    // s1 and s2 both read 0; s2's UPDATE waits for s1's row lock until s1 returns, then writes 0 + 1 again.
    const alternate = await run(schema, 'alternate');
    expect(alternate.trace).toEqual(['s1@1->@2', 's2@1->@2', 's1@2->@3', 's2@2->blocked', 's1@3->returned', 's2@3->returned']);
    expect(alternate.reads).toEqual([0, 0]);
    expect(alternate.counter).toBe(1);

    const serial = await run(schema, 'serial');
    expect(serial.trace).toEqual(['s1@1->@2', 's1@2->@3', 's1@3->returned', 's2@1->@2', 's2@2->@3', 's2@3->returned']);
    expect(serial.reads).toEqual([0, 1]);
    expect(serial.counter).toBe(2);

    expect(await run(schema, 'alternate')).toEqual(alternate);
    expect(await run(schema, 'serial')).toEqual(serial);

    // Outside a controlled batch nothing holds the keys: the instrumented function runs straight through.
    const free = await client();
    await admin.query(`UPDATE ${schema}.counter SET n = 41`);
    expect((await free.query(`SELECT ${schema}.read_then_write() AS v`)).rows[0].v).toBe(41);

    // A wait cancelled at a point leaves no lock behind (the yield drops its marker).
    const scheduler = await client();
    const cancelled = await client();
    const pid = Number((await cancelled.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    await holdFirstPoint(scheduler, pid);
    let done = false;
    const call = cancelled.query(`SELECT ${schema}.read_then_write()`).finally(() => (done = true));
    call.catch(() => undefined);
    expect(await awaitSession(scheduler, pid, { returned: () => done })).toEqual({ kind: 'point', step: 1, point: 1 });
    await admin.query('SELECT pg_cancel_backend($1)', [pid]);
    await expect(call).rejects.toMatchObject({ code: '57014' });
    expect((await admin.query('SELECT count(*)::int AS n FROM pg_locks WHERE pid = $1 AND locktype = $2', [pid, 'advisory'])).rows[0].n).toBe(0);

    // A store's own lock_timeout does not end a wait at a point: the yield runs with none, and
    // the session's setting is its own again after the call.
    const hasty = await client();
    await hasty.query("SET lock_timeout = '20ms'");
    const hastyPid = Number((await hasty.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    await holdFirstPoint(scheduler, hastyPid);
    let hastyDone = false;
    const held = hasty.query(`SELECT ${schema}.read_then_write() AS v`).finally(() => (hastyDone = true));
    held.catch(() => undefined);
    expect(await awaitSession(scheduler, hastyPid, { returned: () => hastyDone })).toEqual({ kind: 'point', step: 1, point: 1 });
    // Held well past the session's lock_timeout.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hastyDone).toBe(false);
    await scheduler.query('SELECT pg_advisory_unlock_all()');
    await expect(held).resolves.toMatchObject({ rows: [{ v: 42 }] });
    expect((await hasty.query('SHOW lock_timeout')).rows[0].lock_timeout).toBe('20ms');
  });
});
