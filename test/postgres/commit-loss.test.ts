// Infrastructure failure on a write is an unknown outcome, resolved where it can be (docs/ARCHITECTURE.md
// "The store port"): a killed backend means "not applied" (StoreUnavailableError), a COMMIT whose
// reply was lost is resolved with pg_xact_status, and only what cannot be decided is
// OutcomeUnknownError. An unreachable server is StoreUnavailableError.

import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { OutcomeUnknownError, StoreUnavailableError, type Store } from '../../adapters/port.ts';
import type { PostgresStoreOptions } from '../../adapters/postgres/store.ts';
import { usePostgres } from './fixture.ts';
import { startReplyDroppingProxy, type ReplyDroppingProxy } from './reply-dropping-proxy.ts';

const pgServer = usePostgres();
const time = { now: () => 50_000 };
const open: Array<Store | ReplyDroppingProxy | pg.Client> = [];

afterEach(async () => {
  for (const thing of open.splice(0)) {
    if ('armCommitReplyLoss' in thing) await thing.close();
    else if ('execute' in thing) await thing.close();
    else await thing.end();
  }
});

async function admin(): Promise<pg.Client> {
  const client = new pg.Client(pgServer.server().connectionString);
  await client.connect();
  open.push(client);
  return client;
}

function viaProxy(proxy: ReplyDroppingProxy): string {
  const url = new URL(pgServer.server().connectionString);
  url.port = String(proxy.port);
  return url.toString();
}

/** A store that reaches the server through a reply-dropping proxy; both are closed after the test. */
async function storeBehindProxy(options: Partial<PostgresStoreOptions> = {}): Promise<{ proxy: ReplyDroppingProxy; store: Store }> {
  const proxy = await startReplyDroppingProxy(pgServer.server().port);
  open.push(proxy);
  const store = await pgServer.store({ time, ...options, connectionString: viaProxy(proxy) });
  open.push(store);
  return { proxy, store };
}

// The multi-statement path (every command but the four one-statement ones), resolved through pg_xact_status.
describe('commit loss', () => {
  test('a backend killed (pg_terminate_backend) right before COMMIT: StoreUnavailableError, and nothing was applied', async () => {
    const killer = await admin();
    let kill = false;
    const store = await pgServer.store({
      fastPath: false,
      time,
      hooks: {
        beforeCommit: async (pid) => {
          if (kill) await killer.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
        },
      },
    });
    open.push(store);
    await store.execute({ kind: 'Inspect' });
    kill = true;
    await expect(store.execute({ kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1000 })).rejects.toThrow(StoreUnavailableError);
    kill = false;
    const view = (await store.execute({ kind: 'Inspect' })).view;
    expect(view.leases).toEqual([]);
    expect(view.tokens).toEqual([]);
    expect(await store.execute({ kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1000 })).toMatchObject({ kind: 'Acquired', lease: { token: 1 } });
  });

  test('a backend killed while the command waits inside its transaction: StoreUnavailableError, and nothing was applied', async () => {
    const schema = pgServer.freshSchema();
    const store = await pgServer.store({ fastPath: false, time, schema });
    open.push(store);
    await store.execute({ kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1 });
    const locker = await admin();
    await locker.query('BEGIN');
    await locker.query(`SELECT * FROM ${schema}.scope_counter WHERE scope = 's' FOR UPDATE`);
    const pending = store.execute({ kind: 'Acquire', scope: 's', holder: 'b', ttlMs: 1000 }).catch((error: unknown) => error);
    const killer = await admin();
    for (let i = 0; i < 100; i++) {
      const waiting = await killer.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()");
      if (waiting.rows.length > 0) {
        await killer.query('SELECT pg_terminate_backend($1, 5000)', [waiting.rows[0]!.pid]);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await pending).toBeInstanceOf(StoreUnavailableError);
    await locker.query('ROLLBACK');
    expect((await store.execute({ kind: 'Inspect' })).view.tokens).toEqual([{ scope: 's', lastToken: 1 }]);
  });

  test('the reply of a COMMIT is lost: pg_xact_status says committed, and the committed outcome is returned', async () => {
    const { proxy, store } = await storeBehindProxy({ fastPath: false, hooks: { beforeCommit: async () => undefined } });
    await store.execute({ kind: 'Acquire', scope: 'other', holder: 'x', ttlMs: 1000 });
    proxy.armCommitReplyLoss();
    const outcome = await store.execute({ kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1000 });
    expect(outcome).toEqual({ kind: 'Acquired', lease: { scope: 's', holder: 'a', token: 1, acquiredAt: 50_000, expiresAt: 51_000 } });
    const view = (await store.execute({ kind: 'Inspect' })).view;
    expect(view.leases.map((l) => [l.scope, l.holder, l.token])).toEqual([
      ['other', 'x', 1],
      ['s', 'a', 1],
    ]);
  });

  test('the COMMIT is lost on the way and the transaction lingers in progress: its backend is ended, and the command was not applied', async () => {
    const { proxy, store } = await storeBehindProxy({ fastPath: false });
    await store.execute({ kind: 'Inspect' });
    proxy.armCommitLoss();
    await expect(store.execute({ kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1000 })).rejects.toThrow(StoreUnavailableError);
    expect((await store.execute({ kind: 'Inspect' })).view.leases).toEqual([]);
    const lingering = await (await admin()).query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'");
    expect(lingering.rows[0].n).toBe(0);
  });

  test('the reply of a COMMIT is lost and the server cannot be reached again: OutcomeUnknownError', async () => {
    const { proxy, store } = await storeBehindProxy({ fastPath: false, connectTimeoutMs: 1000 });
    await store.execute({ kind: 'Inspect' });
    proxy.armCommitReplyLoss();
    proxy.refuseNewConnections(true);
    const error = await store.execute({ kind: 'Release', scope: 's', holder: 'a', token: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).command).toBe('Release');
  });

  test('an unreachable server at connect time: StoreUnavailableError', async () => {
    const proxy = await startReplyDroppingProxy(pgServer.server().port);
    open.push(proxy);
    proxy.refuseNewConnections(true);
    const store = await pgServer.store({ fastPath: false, time, connectionString: viaProxy(proxy), connectTimeoutMs: 1000 });
    open.push(store);
    await expect(store.execute({ kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1000 })).rejects.toThrow(StoreUnavailableError);
  });
});

// Acquire, Renew, Release and Mutate are one autocommit statement each (adapters/postgres/fast-path.ts):
// no xid can be read first, so a lost reply is resolved through the request log instead.
describe('commit loss on the one-statement path', () => {
  async function logRows(schema: string): Promise<number> {
    const rows = await (await admin()).query(`SELECT count(*)::int AS n FROM ${schema}.request_log`);
    return rows.rows[0].n as number;
  }

  test('the reply of an Acquire is lost after it committed: the request log has it, and the committed outcome is returned', async () => {
    const { proxy, store } = await storeBehindProxy({ poolSize: 1 });
    await store.execute({ kind: 'Acquire', scope: 'other', holder: 'x', ttlMs: 1000 });
    proxy.armCommitReplyLoss();
    const acquired = await store.execute({ kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1000 });
    expect(acquired).toEqual({ kind: 'Acquired', lease: { scope: 's', holder: 'a', token: 1, acquiredAt: 50_000, expiresAt: 51_000 } });
    proxy.armCommitReplyLoss();
    expect(await store.execute({ kind: 'Renew', scope: 's', holder: 'a', expectedToken: 1, ttlMs: 2000 })).toEqual({
      kind: 'Renewed',
      lease: { scope: 's', holder: 'a', token: 1, acquiredAt: 50_000, expiresAt: 52_000 },
    });
    proxy.armCommitReplyLoss();
    expect(await store.execute({ kind: 'Mutate', scope: 's', aggregate: 'g', holder: 'a', token: 1, expectedVersion: 0 })).toEqual({
      kind: 'Accepted',
      version: 1,
      token: 1,
    });
    proxy.armCommitReplyLoss();
    expect(await store.execute({ kind: 'Release', scope: 's', holder: 'a', token: 1 })).toEqual({ kind: 'Released', token: 1 });
    const view = (await store.execute({ kind: 'Inspect' })).view;
    expect(view.leases.map((l) => [l.scope, l.holder, l.token])).toEqual([['other', 'x', 1]]);
    expect(view.tombstones.map((t) => [t.scope, t.token, t.cause])).toEqual([['s', 1, 'released']]);
    expect(view.aggregates).toEqual([{ scope: 's', aggregate: 'g', version: 1, lastToken: 1 }]);
  });

  test('an Acquire dropped before it reached the server: StoreUnavailableError, nothing applied, and a retry succeeds', async () => {
    const { proxy, store } = await storeBehindProxy({ poolSize: 1 });
    await store.execute({ kind: 'Acquire', scope: 'other', holder: 'x', ttlMs: 1000 });
    proxy.armCommitLoss();
    await expect(store.execute({ kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1000 })).rejects.toThrow(StoreUnavailableError);
    expect((await store.execute({ kind: 'Inspect' })).view.tokens).toEqual([{ scope: 'other', lastToken: 1 }]);
    expect(await store.execute({ kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1000 })).toMatchObject({ kind: 'Acquired', lease: { token: 1 } });
  });

  test('the client is cut off while its Acquire waits for a lock: the old backend is ended, and the command was not applied', async () => {
    const schema = pgServer.freshSchema();
    const clock = { t: 50_000 };
    const { proxy, store } = await storeBehindProxy({ time: { now: () => clock.t }, schema, poolSize: 1 });
    await store.execute({ kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1 });
    clock.t = 60_000;
    const locker = await admin();
    await locker.query('BEGIN');
    await locker.query(`SELECT * FROM ${schema}.scope_counter WHERE scope = 's' FOR UPDATE`);
    const pending = store.execute({ kind: 'Acquire', scope: 's', holder: 'b', ttlMs: 1000 }).catch((error: unknown) => error);
    const watcher = await admin();
    let waited = false;
    for (let i = 0; i < 200 && !waited; i++) {
      const waiting = await watcher.query("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%testbed_acquire%'");
      waited = waiting.rows.length > 0;
      if (!waited) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(waited).toBe(true);
    // The server side stays open: its backend keeps waiting and would commit once the lock is free.
    proxy.cutClients();
    expect(await pending).toBeInstanceOf(StoreUnavailableError);
    await locker.query('COMMIT');
    const view = (await store.execute({ kind: 'Inspect' })).view;
    expect(view.tokens).toEqual([{ scope: 's', lastToken: 1 }]);
    expect(view.leases).toEqual([]);
    // Had the old backend not been ended, it would have acquired token 2 once the lock was free.
    expect(await store.execute({ kind: 'Acquire', scope: 's', holder: 'b', ttlMs: 1000 })).toMatchObject({ kind: 'Acquired', lease: { token: 2 } });
    const stillWaiting = await watcher.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%testbed_acquire%' AND state <> 'idle' AND pid <> pg_backend_pid()");
    expect(stillWaiting.rows[0].n).toBe(0);
  });

  test('a lost reply of an outcome that changed nothing (Busy): StoreUnavailableError, which is exactly true', async () => {
    const { proxy, store } = await storeBehindProxy({ poolSize: 1 });
    await store.execute({ kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1000 });
    proxy.armCommitReplyLoss();
    await expect(store.execute({ kind: 'Acquire', scope: 's', holder: 'b', ttlMs: 1000 })).rejects.toThrow(StoreUnavailableError);
    expect((await store.execute({ kind: 'Inspect' })).view.leases.map((l) => [l.holder, l.token])).toEqual([['a', 1]]);
  });

  test('a multi-statement command still resolves a lost COMMIT reply with pg_xact_status, and ends a lingering transaction', async () => {
    const { proxy, store } = await storeBehindProxy();
    await store.execute({ kind: 'Inspect' });
    proxy.armCommitReplyLoss();
    expect(await store.execute({ kind: 'Enqueue', scope: 's', waiterId: 'w1', holder: 'a', priority: 0 })).toEqual({ kind: 'Enqueued', position: 1 });
    proxy.armCommitLoss();
    await expect(store.execute({ kind: 'Enqueue', scope: 's', waiterId: 'w2', holder: 'b', priority: 0 })).rejects.toThrow(StoreUnavailableError);
    expect((await store.execute({ kind: 'Inspect' })).view.waiters.map((w) => w.waiterId)).toEqual(['w1']);
    const lingering = await (await admin()).query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'");
    expect(lingering.rows[0].n).toBe(0);
  });

  test('the request log keeps one row per connection, and is not part of a store image', async () => {
    const schema = pgServer.freshSchema();
    const store = await pgServer.store({ time, schema, poolSize: 3 });
    open.push(store);
    for (let round = 0; round < 20; round++) {
      const outcomes = await Promise.all(['a', 'b', 'c'].map((scope) => store.execute({ kind: 'Acquire', scope, holder: 'h', ttlMs: 1000 })));
      await Promise.all(
        outcomes.map((o, i) => (o.kind === 'Acquired' ? store.execute({ kind: 'Release', scope: ['a', 'b', 'c'][i]!, holder: 'h', token: o.lease.token }) : null)),
      );
    }
    expect(await logRows(schema)).toBeLessThanOrEqual(3);
    expect(await logRows(schema)).toBeGreaterThan(0);
    const image = await store.snapshot!();
    expect(Object.keys((image.data as { tables: Record<string, unknown> }).tables)).not.toContain('request_log');
    await store.restore!(image);
    expect(await logRows(schema)).toBeGreaterThan(0);
  });
});
