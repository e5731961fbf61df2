// seed 000 §72, §77–§78: under READ COMMITTED a read-then-write acquire lets two callers both
// take a free scope; the store's per-scope row lock (SELECT ... FOR UPDATE) prevents exactly that.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Store } from '../../adapters/port.ts';
import { usePostgres } from './fixture.ts';

const pgServer = usePostgres();
let admins: pg.Client[] = [];

beforeAll(async () => {
  admins = [new pg.Client(pgServer.server().connectionString), new pg.Client(pgServer.server().connectionString)];
  await Promise.all(admins.map((c) => c.connect()));
});
afterAll(async () => {
  await Promise.all(admins.map((c) => c.end()));
});

describe('isolation', () => {
  test('without the lock, READ COMMITTED allows the anomaly: two read-then-write acquires both succeed', async () => {
    const [t1, t2] = admins as [pg.Client, pg.Client];
    await t1.query('CREATE TABLE naive_lease (scope text PRIMARY KEY, holder text NOT NULL)');
    // Both read "free" before either writes; both then write and commit, each believing it owns the scope.
    const believes: string[] = [];
    await t1.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    await t2.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    const free1 = (await t1.query("SELECT 1 FROM naive_lease WHERE scope = 's'")).rowCount === 0;
    const free2 = (await t2.query("SELECT 1 FROM naive_lease WHERE scope = 's'")).rowCount === 0;
    if (free1) {
      await t1.query("INSERT INTO naive_lease VALUES ('s', 'a') ON CONFLICT (scope) DO UPDATE SET holder = EXCLUDED.holder");
      await t1.query('COMMIT');
      believes.push('a');
    }
    if (free2) {
      await t2.query("INSERT INTO naive_lease VALUES ('s', 'b') ON CONFLICT (scope) DO UPDATE SET holder = EXCLUDED.holder");
      await t2.query('COMMIT');
      believes.push('b');
    }
    expect(believes).toEqual(['a', 'b']);
  });

  test('with the store: two acquires forced to interleave on a free scope never both succeed', async () => {
    const schema = pgServer.freshSchema();
    const stores: Store[] = await Promise.all([0, 1].map(() => pgServer.store({ time: 'database', schema, poolSize: 1 })));
    try {
      await stores[0]!.execute({ kind: 'Inspect' });
      const [locker] = admins as [pg.Client];
      // Hold the scope's lock row so both acquires start and queue behind it, then let them run.
      await locker.query(`INSERT INTO ${schema}.scope_counter (scope) VALUES ('s')`);
      await locker.query('BEGIN');
      await locker.query(`SELECT * FROM ${schema}.scope_counter WHERE scope = 's' FOR UPDATE`);
      const racing = stores.map((store, i) => store.execute({ kind: 'Acquire', scope: 's', holder: `h${i}`, ttlMs: 60_000 }));
      let waitingOnLock = 0;
      for (let i = 0; i < 200 && waitingOnLock < 2; i++) {
        const waiting = await admins[1]!.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'");
        waitingOnLock = waiting.rows[0].n;
        if (waitingOnLock < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Both acquires really were in flight together, queued on the scope's row lock.
      expect(waitingOnLock).toBeGreaterThanOrEqual(2);
      await locker.query('COMMIT');
      const outcomes = await Promise.all(racing);
      expect(outcomes.map((o) => o.kind).sort()).toEqual(['Acquired', 'Busy']);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  test('with the store: 8 concurrent acquires on each of 25 free scopes give exactly one owner each', async () => {
    const schema = pgServer.freshSchema();
    const stores: Store[] = await Promise.all([...Array(8)].map(() => pgServer.store({ time: 'database', schema, poolSize: 1 })));
    try {
      await stores[0]!.execute({ kind: 'Inspect' });
      for (let round = 0; round < 25; round++) {
        const outcomes = await Promise.all(stores.map((store, i) => store.execute({ kind: 'Acquire', scope: `r${round}`, holder: `h${i}`, ttlMs: 60_000 })));
        expect(outcomes.filter((o) => o.kind === 'Acquired')).toHaveLength(1);
      }
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});
