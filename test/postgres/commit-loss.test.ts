// Infrastructure failure on a write is an unknown outcome, resolved where it can be (DESIGN.md
// "The store port"): a killed backend means "not applied" (StoreUnavailableError), a COMMIT whose
// reply was lost is resolved with pg_xact_status, and only what cannot be decided is
// OutcomeUnknownError. An unreachable server is StoreUnavailableError.

import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { OutcomeUnknownError, StoreUnavailableError, type Store } from '../../adapters/port.ts';
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

describe('commit loss', () => {
  test('a backend killed (pg_terminate_backend) right before COMMIT: StoreUnavailableError, and nothing was applied', async () => {
    const killer = await admin();
    let kill = false;
    const store = await pgServer.store({
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
    const store = await pgServer.store({ time, schema });
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
    const proxy = await startReplyDroppingProxy(pgServer.server().port);
    open.push(proxy);
    const store = await pgServer.store({ time, connectionString: viaProxy(proxy), hooks: { beforeCommit: async () => undefined } });
    open.push(store);
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
    const proxy = await startReplyDroppingProxy(pgServer.server().port);
    open.push(proxy);
    const store = await pgServer.store({ time, connectionString: viaProxy(proxy) });
    open.push(store);
    await store.execute({ kind: 'Inspect' });
    proxy.armCommitLoss();
    await expect(store.execute({ kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1000 })).rejects.toThrow(StoreUnavailableError);
    expect((await store.execute({ kind: 'Inspect' })).view.leases).toEqual([]);
    const lingering = await (await admin()).query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'");
    expect(lingering.rows[0].n).toBe(0);
  });

  test('the reply of a COMMIT is lost and the server cannot be reached again: OutcomeUnknownError', async () => {
    const proxy = await startReplyDroppingProxy(pgServer.server().port);
    open.push(proxy);
    const store = await pgServer.store({ time, connectionString: viaProxy(proxy), connectTimeoutMs: 1000 });
    open.push(store);
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
    const store = await pgServer.store({ time, connectionString: viaProxy(proxy), connectTimeoutMs: 1000 });
    open.push(store);
    await expect(store.execute({ kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 1000 })).rejects.toThrow(StoreUnavailableError);
  });
});
