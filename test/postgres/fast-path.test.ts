// The PL/pgSQL functions of schema migration 2 called both ways: alone, as one autocommit
// statement (adapters/postgres/fast-path.ts), and as one statement of a transaction
// (lease-functions.ts, `fastPath: false`, where nothing is logged), against the reference model, on random sequences weighted towards what those functions decide: guards,
// waiters and queue heads with aging, blocked scopes, recovery epochs, expiry, stale tokens.

import fc from 'fast-check';
import pg from 'pg';
import { expect, test } from 'vitest';
import { ACQUIRE } from '../../adapters/postgres/migrations/002/acquire.ts';
import type { Command } from '../../model/commands.ts';
import { initialState, type ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { usePostgres } from './fixture.ts';

const pgServer = usePostgres();

const scope = fc.constantFrom('a', 'b');
const holder = fc.constantFrom('h1', 'h2');
const token = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(1_000_000_001), fc.constant(1_000_000_002));
const ttl = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(100, 1000, 5000) }, { weight: 1, arbitrary: fc.constantFrom(0, 600_001) });
const waiterId = fc.constantFrom('w1', 'w2', 'w3');
/** Present in one case of four. */
function sometimes<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
}
const guard = sometimes(fc.record({ role: fc.constantFrom('r1', 'r2'), epoch: fc.integer({ min: -1, max: 3 }) }));

const command: fc.Arbitrary<Command | number> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('Acquire' as const), scope, holder, ttlMs: ttl, waiterId: fc.oneof(fc.constant(undefined), waiterId), guard }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('Renew' as const), scope, holder, expectedToken: token, ttlMs: ttl }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('Release' as const), scope, holder, token }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('Mutate' as const), scope, aggregate: fc.constant('g'), holder, token, expectedVersion: fc.integer({ min: 0, max: 2 }), guard }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('Enqueue' as const), scope, waiterId, holder, priority: fc.integer({ min: -1, max: 1 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('CancelWait' as const), scope, waiterId }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('AdvanceRecoveryEpoch' as const), atLeast: fc.integer({ min: 0, max: 2 }), blockScopes: fc.subarray(['a', 'b']) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ReconcileScope' as const), scope, actor: fc.constant('ops') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('AdvanceRoleEpoch' as const), role: fc.constantFrom('r1', 'r2'), epoch: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 3, arbitrary: fc.constantFrom(1, 99, 100, 999, 1000, 2500) },
);

test('both paths return the reference model outcome for every step, and end in the same view', async () => {
  const clock = { t: 10_000 };
  const time = { now: () => clock.t };
  const fast = await pgServer.store({ time, poolSize: 1 });
  const multi = await pgServer.store({ time, poolSize: 1, fastPath: false });
  await fast.execute({ kind: 'Inspect' });
  await multi.execute({ kind: 'Inspect' });
  const empty = [await fast.snapshot!(), await multi.snapshot!()] as const;
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 50 }), async (steps) => {
        clock.t = 10_000;
        await fast.restore!(empty[0]);
        await multi.restore!(empty[1]);
        let state: ModelState = initialState();
        for (const item of steps) {
          if (typeof item === 'number') {
            clock.t += item;
            continue;
          }
          const expected = step(state, item, clock.t);
          state = expected.state;
          const label = `${JSON.stringify(item)} at t=${clock.t}`;
          expect(await fast.execute(item), `one statement: ${label}`).toEqual(expected.outcome);
          expect(await multi.execute(item), `multi-statement: ${label}`).toEqual(expected.outcome);
        }
        const view = step(state, { kind: 'Inspect' }, clock.t).outcome;
        expect(await fast.execute({ kind: 'Inspect' })).toEqual(view);
        expect(await multi.execute({ kind: 'Inspect' })).toEqual(view);
      }),
      { numRuns: 40 },
    );
  } finally {
    await fast.close();
    await multi.close();
  }
}, 120_000);

type Step = Command | number;

/** Fixed sequences through every branch of the four functions: each must match the model on both paths. */
const SCENARIOS: Record<string, Step[]> = {
  'tokens after a recovery epoch': [
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000 },
    { kind: 'AdvanceRecoveryEpoch', atLeast: 2, blockScopes: [] },
    { kind: 'Acquire', scope: 'a', holder: 'h2', ttlMs: 1000 },
    { kind: 'Acquire', scope: 'b', holder: 'h2', ttlMs: 1000 },
    { kind: 'Release', scope: 'b', holder: 'h2', token: 2_000_000_001 },
    { kind: 'Acquire', scope: 'b', holder: 'h1', ttlMs: 1000 },
  ],
  'queue head by priority, aging and seq': [
    { kind: 'Enqueue', scope: 'a', waiterId: 'w1', holder: 'h1', priority: 0 },
    { kind: 'Enqueue', scope: 'a', waiterId: 'w2', holder: 'h2', priority: 1 },
    { kind: 'Enqueue', scope: 'b', waiterId: 'wb', holder: 'h2', priority: 0 },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000 },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000, waiterId: 'wx' },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000, waiterId: 'wb' },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000, waiterId: 'w1' },
    { kind: 'Acquire', scope: 'a', holder: 'h2', ttlMs: 1000, waiterId: 'w2' },
    { kind: 'Release', scope: 'a', holder: 'h2', token: 1 },
    2000,
    { kind: 'Enqueue', scope: 'a', waiterId: 'w3', holder: 'h2', priority: 2 },
    { kind: 'Acquire', scope: 'a', holder: 'h2', ttlMs: 1000, waiterId: 'w3' },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000, waiterId: 'w1' },
    1000,
    { kind: 'Acquire', scope: 'a', holder: 'h2', ttlMs: 1000, waiterId: 'w3' },
    { kind: 'Acquire', scope: 'c', holder: 'h2', ttlMs: 1000, waiterId: 'w3' },
  ],
  'blocked scopes': [
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000 },
    { kind: 'AdvanceRecoveryEpoch', atLeast: 0, blockScopes: ['a'] },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000 },
    { kind: 'Renew', scope: 'a', holder: 'h1', expectedToken: 1, ttlMs: 1000 },
    { kind: 'Release', scope: 'a', holder: 'h1', token: 1 },
    { kind: 'Mutate', scope: 'a', aggregate: 'g', holder: 'h1', token: 1, expectedVersion: 0 },
    { kind: 'ReconcileScope', scope: 'a', actor: 'ops' },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000 },
  ],
  'guards': [
    { kind: 'AdvanceRoleEpoch', role: 'r', epoch: 2 },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000, guard: { role: 'r', epoch: 1 } },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000, guard: { role: 'r', epoch: -1 } },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000, guard: { role: 'q', epoch: -1 } },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000, guard: { role: 'r', epoch: Number.NaN } },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000, guard: { role: 'n', epoch: Number.POSITIVE_INFINITY } },
    { kind: 'Mutate', scope: 'a', aggregate: 'g', holder: 'h1', token: 1, expectedVersion: 0, guard: { role: 'r', epoch: Number.NaN } },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 1000, guard: { role: 'r', epoch: 2 } },
    { kind: 'Acquire', scope: 'a', holder: 'h2', ttlMs: 1000, guard: { role: 'r', epoch: 3 } },
    { kind: 'Acquire', scope: 'b', holder: 'h2', ttlMs: 0, guard: { role: 'r', epoch: 4 } },
    { kind: 'Acquire', scope: 'b', holder: '', ttlMs: 10, guard: { role: 's', epoch: 0 } },
    { kind: 'Mutate', scope: 'a', aggregate: 'g', holder: 'h1', token: 1, expectedVersion: 0, guard: { role: 'r', epoch: 3 } },
    { kind: 'Mutate', scope: 'a', aggregate: 'g', holder: 'h1', token: 1, expectedVersion: 0, guard: { role: 'r', epoch: 5 } },
    { kind: 'Mutate', scope: 'z', aggregate: 'g', holder: 'h1', token: 1, expectedVersion: 0, guard: { role: 't', epoch: 1 } },
    { kind: 'Mutate', scope: 'a', aggregate: 'g', holder: 'h1', token: 1, expectedVersion: 0, guard: { role: 'r', epoch: 4 } },
  ],
  'expiry, stale tokens and versions': [
    { kind: 'Renew', scope: 'a', holder: 'h1', expectedToken: 1, ttlMs: 1000 },
    { kind: 'Release', scope: 'a', holder: 'h1', token: 1 },
    { kind: 'Acquire', scope: 'a', holder: 'h1', ttlMs: 100 },
    { kind: 'Renew', scope: 'a', holder: 'h1', expectedToken: 1, ttlMs: 600_001 },
    { kind: 'Renew', scope: 'a', holder: 'h2', expectedToken: 1, ttlMs: 100 },
    { kind: 'Renew', scope: 'a', holder: 'h1', expectedToken: 2, ttlMs: 100 },
    { kind: 'Mutate', scope: 'a', aggregate: 'g', holder: 'h1', token: 1, expectedVersion: 1 },
    { kind: 'Mutate', scope: 'a', aggregate: 'g', holder: 'h1', token: 1, expectedVersion: 0 },
    { kind: 'Mutate', scope: 'a', aggregate: 'g', holder: 'h1', token: 1, expectedVersion: 0 },
    { kind: 'Mutate', scope: 'a', aggregate: 'g', holder: 'h2', token: 1, expectedVersion: 1 },
    { kind: 'Renew', scope: 'a', holder: 'h1', expectedToken: 1, ttlMs: 100 },
    100,
    { kind: 'Renew', scope: 'a', holder: 'h1', expectedToken: 1, ttlMs: 100 },
    99,
    { kind: 'Mutate', scope: 'a', aggregate: 'g', holder: 'h1', token: 1, expectedVersion: 1 },
    1,
    { kind: 'Renew', scope: 'a', holder: 'h1', expectedToken: 1, ttlMs: 100 },
    { kind: 'Release', scope: 'a', holder: 'h1', token: 1 },
    { kind: 'Mutate', scope: 'a', aggregate: 'g', holder: 'h1', token: 1, expectedVersion: 1 },
    { kind: 'Acquire', scope: 'a', holder: 'h2', ttlMs: 100 },
    { kind: 'Release', scope: 'a', holder: 'h1', token: 2 },
    { kind: 'Release', scope: 'a', holder: 'h2', token: 1 },
    { kind: 'Renew', scope: 'a', holder: 'h1', expectedToken: 1, ttlMs: 100 },
    { kind: 'Release', scope: 'a', holder: 'h2', token: 2 },
    { kind: 'Acquire', scope: 'a', holder: 'x'.repeat(257), ttlMs: 100 },
    { kind: 'Acquire', scope: 'a\u0000', holder: 'h', ttlMs: 100 },
    { kind: 'Acquire', scope: 'a', holder: 'h', ttlMs: 1.5 },
  ],
};

test.each(Object.keys(SCENARIOS))('%s: both paths match the model step by step', async (name) => {
  const clock = { t: 10_000 };
  const time = { now: () => clock.t };
  const stores = [await pgServer.store({ time, poolSize: 1 }), await pgServer.store({ time, poolSize: 1, fastPath: false })];
  try {
    let state: ModelState = initialState();
    for (const item of SCENARIOS[name]!) {
      if (typeof item === 'number') {
        clock.t += item;
        continue;
      }
      const expected = step(state, item, clock.t);
      state = expected.state;
      for (const [i, store] of stores.entries()) {
        expect(await store.execute(item), `${i === 0 ? 'one statement' : 'multi-statement'}: ${JSON.stringify(item)} at t=${clock.t}`).toEqual(expected.outcome);
      }
    }
    const view = step(state, { kind: 'Inspect' }, clock.t).outcome;
    for (const store of stores) expect(await store.execute({ kind: 'Inspect' })).toEqual(view);
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
});

// Migration 4: a schema whose functions predate their use inside transactions (they logged every
// writing outcome, with or without a connection id) gets the current ones: an Acquire called with
// no connection id fails on the old function (the log's key is missing) and works on the new one.
test('migration 4 replaces the command functions of a schema migrated before it', async () => {
  const schema = pgServer.freshSchema();
  const time = { now: () => 10_000 };
  const open = async (): Promise<void> => {
    const store = await pgServer.store({ time, schema });
    try {
      await store.execute({ kind: 'Inspect' });
    } finally {
      await store.close();
    }
  };
  await open();
  const client = new pg.Client(pgServer.server().connectionString);
  await client.connect();
  const acquireInTransaction = async (scope: string): Promise<string> => {
    await client.query('BEGIN');
    try {
      const result = await client.query<{ o: { kind: string } }>(`SELECT testbed_acquire(NULL, NULL, $1, 'h', 1000, NULL, NULL, NULL, NULL, 10000) AS o`, [scope]);
      await client.query('COMMIT');
      return result.rows[0]!.o.kind;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  };
  try {
    await client.query(`SET search_path TO ${schema}`);
    const logsAlways = ACQUIRE.replace('SELECT p_conn, p_request, v_out, clock_timestamp() WHERE p_conn IS NOT NULL', 'VALUES (p_conn, p_request, v_out, clock_timestamp())');
    expect(logsAlways).not.toBe(ACQUIRE);
    await client.query(logsAlways.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
    await client.query('DELETE FROM schema_version WHERE version = 4');
    await expect(acquireInTransaction('s1')).rejects.toThrow(/null value/);
    // A store opened now migrates the schema to version 4 before its first command.
    await open();
    expect(await acquireInTransaction('s2')).toBe('Acquired');
  } finally {
    await client.end();
  }
});
