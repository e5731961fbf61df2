// Each simulated fault kind maps to a real action on PostgreSQL or says it is simulated-only: lost replies after commit (seed 000 §286), partitions, killed sessions, crash, failover with its lost-commit window and restore (seed 000 §272–§276, §302; seed 001 §277 for the database side of a lost DB).

import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startRealFaultDriver, type RealFaultDriver } from '../../adapters/faults/real-faults.ts';
import type { PostgresCluster } from '../../adapters/faults/postgres-cluster.ts';
import { errorCodeOf, eventually, portOpen, queryOnce } from './pg-helpers.ts';

/** Replication delay on the link: commits younger than this are lost by a failover. */
const REPLICATION_LAG_MS = 800;

let driver: RealFaultDriver & { readonly cluster: PostgresCluster };
let closed = false;

beforeAll(async () => {
  driver = await startRealFaultDriver({ clients: ['c1', 'c2'], replicationLagMs: REPLICATION_LAG_MS });
  await driver.cluster.query('primary', 'CREATE TABLE ledger (id text PRIMARY KEY)');
});

afterAll(async () => {
  if (!closed) await driver?.close();
});

const primaryHas = async (id: string): Promise<boolean> =>
  (await queryOnce(driver.cluster.primary.connectionString, 'SELECT 1 FROM ledger WHERE id = $1', [id])).rowCount === 1;

/** A session of one client through its proxy; errors after a fault are read from the query, not the emitter. */
async function session(clientId: string, options: pg.ClientConfig = {}): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: driver.connectionStringFor(clientId), connectionTimeoutMillis: 3_000, ...options });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

describe('RealFaultDriver', () => {
  it('answers simulated-only, with a reason, for faults that have no real counterpart', async () => {
    for (const f of ['pause', 'resume', 'restart', 'clock-skew', 'provider-timeout', 'quorum-loss', 'quorum-restored', 'leader-change'] as const) {
      const outcome = await driver.apply({ f, value: {} });
      expect(outcome.kind, f).toBe('simulated-only');
      expect(outcome.kind === 'simulated-only' && outcome.reason.length > 0).toBe(true);
    }
    // The simulator's own shapes: links that do not touch the database, or a controller with no connection of its own.
    expect((await driver.apply({ f: 'partition', value: { from: 'c1', to: 'provider', oneWay: false, durationMs: 50 } })).kind).toBe('simulated-only');
    expect((await driver.apply({ f: 'partition', value: { from: 'c9', to: 'db', oneWay: false, durationMs: 50 } })).kind).toBe('simulated-only');
    expect((await driver.apply({ f: 'heal', value: { from: 'c9', to: 'db' } })).kind).toBe('simulated-only');
    expect((await driver.apply({ f: 'crash', value: { node: 'c9', process: 'c9#1' } })).kind).toBe('simulated-only');
    expect((await driver.apply({ f: 'db-failover', value: { lagMs: 100, skipped: true } })).kind).toBe('simulated-only');
    expect((await driver.apply({ f: 'db-restore', value: { snapshotAgeMs: 100 } })).kind).toBe('simulated-only');
  });

  it('gives each client its own proxied connection string, tagged with its id', async () => {
    expect(driver.connectionStringFor('c1')).not.toBe(driver.connectionStringFor('c2'));
    expect(() => driver.connectionStringFor('nobody')).toThrow(/unknown client/);
    const { rows } = await queryOnce(driver.connectionStringFor('c1'), 'SELECT current_setting($1) AS name', ['application_name']);
    expect(rows).toEqual([{ name: 'c1' }]);
  });

  it('message-loss (lost reply): the commit happens, the client sees a reset connection, never a result', async () => {
    const c1 = await session('c1');
    const outcome = await driver.apply({ f: 'message-loss', value: { clients: ['c1'], mode: 'lost-reply' } });
    expect(outcome).toMatchObject({ kind: 'applied', action: expect.stringContaining('reset_peer') });
    const code = await errorCodeOf(c1.query("INSERT INTO ledger VALUES ('lost-reply')"));
    expect(code).toBe('ECONNRESET');
    await driver.apply({ f: 'heal', value: {} });
    expect(await primaryHas('lost-reply')).toBe(true);
    await c1.end().catch(() => undefined);
  });

  it('partition c2<->db (blackhole) makes c2 time out while c1 works, until that partition heals', async () => {
    const outcome = await driver.apply({ f: 'partition', value: { from: 'c2', to: 'db', oneWay: false, durationMs: 100 } });
    expect(outcome).toMatchObject({ kind: 'applied', action: expect.stringContaining('upstream and downstream') });
    const c2 = await errorCodeOf(queryOnce(driver.connectionStringFor('c2'), 'SELECT 1', [], 500));
    expect(c2).toMatch(/timeout/i);
    expect((await queryOnce(driver.connectionStringFor('c1'), 'SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await driver.apply({ f: 'heal', value: { from: 'c2', to: 'db' } });
    expect((await queryOnce(driver.connectionStringFor('c2'), 'SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('a one-way partition db->c1 drops only the replies: the write lands, the client times out', async () => {
    const c1 = await session('c1', { query_timeout: 500 });
    const outcome = await driver.apply({ f: 'partition', value: { from: 'db', to: 'c1', oneWay: true, durationMs: 100 } });
    expect(outcome).toMatchObject({ kind: 'applied', action: expect.stringMatching(/on downstream for/) });
    expect(await errorCodeOf(c1.query("INSERT INTO ledger VALUES ('reply-partitioned')"))).toMatch(/timeout/i);
    expect(await primaryHas('reply-partitioned')).toBe(true);
    await driver.apply({ f: 'heal', value: { from: 'db', to: 'c1' } });
    expect((await queryOnce(driver.connectionStringFor('c1'), 'SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await c1.end().catch(() => undefined);
  });

  it("message-loss with the simulator's { pct, durationMs } resets connections, then lifts by itself", async () => {
    const outcome = await driver.apply({ f: 'message-loss', value: { pct: 100, durationMs: 300 } });
    expect(outcome).toMatchObject({ kind: 'applied', action: expect.stringContaining('for 300 ms') });
    expect(await errorCodeOf(queryOnce(driver.connectionStringFor('c1'), 'SELECT 1'))).toBe('ECONNRESET');
    const lifted = async (): Promise<boolean> => (await queryOnce(driver.connectionStringFor('c1'), 'SELECT 1')).rowCount === 1;
    expect(await eventually(lifted, 5_000)).toBe(true);
  });

  it('partition (down) refuses connections until heal', async () => {
    await driver.apply({ f: 'partition', value: { clients: ['c1'], mode: 'down' } });
    expect(await errorCodeOf(queryOnce(driver.connectionStringFor('c1'), 'SELECT 1'))).toBe('ECONNREFUSED');
    await driver.apply({ f: 'heal', value: {} });
    expect((await queryOnce(driver.connectionStringFor('c1'), 'SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('message-loss (delay) adds at least the latency to each round trip', async () => {
    const c1 = await session('c1');
    await driver.apply({ f: 'message-loss', value: { clients: ['c1'], delayMs: 300 } });
    const started = performance.now();
    await c1.query('SELECT 1');
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    await driver.apply({ f: 'heal', value: {} });
    await c1.end();
  });

  it('crash of a controller terminates its sessions (57P01) and leaves the others', async () => {
    const c1 = new pg.Client({ connectionString: driver.connectionStringFor('c1') });
    const c1Errors: unknown[] = [];
    c1.on('error', (error) => c1Errors.push(error));
    await c1.connect();
    const c2 = await session('c2');
    const outcome = await driver.apply({ f: 'crash', value: { node: 'c1', process: 'c1#1' } });
    expect(outcome).toMatchObject({ kind: 'applied', action: expect.stringContaining('pg_terminate_backend on 1 session') });
    // An idle session learns of it from the server's FATAL message, which pg emits as an 'error' event.
    expect(await eventually(async () => c1Errors.length > 0, 5_000)).toBe(true);
    expect(await errorCodeOf(Promise.reject(c1Errors[0]))).toBe('57P01');
    expect((await c2.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await c2.end();
    await c1.end().catch(() => undefined);
  });

  it('db-failover promotes the lagging replica: commits inside the lag window are lost and clients are repointed', async () => {
    await queryOnce(driver.connectionStringFor('c1'), "INSERT INTO ledger VALUES ('replicated')");
    const replicaHas = async (id: string): Promise<boolean> =>
      (await queryOnce(driver.cluster.replica.connectionString, 'SELECT 1 FROM ledger WHERE id = $1', [id])).rowCount === 1;
    expect(await eventually(() => replicaHas('replicated'), 15_000)).toBe(true);
    const before = driver.connectionStringFor('c1');
    await queryOnce(before, "INSERT INTO ledger VALUES ('inside-lag-window')");
    const outcome = await driver.apply({ f: 'db-failover', value: {} });
    expect(outcome).toMatchObject({ kind: 'applied', action: expect.stringMatching(/promoted in \d+ ms/) });
    const after = driver.connectionStringFor('c1');
    expect(after).not.toBe(before);
    expect((await queryOnce(after, 'SELECT pg_is_in_recovery() AS standby')).rows).toEqual([{ standby: false }]);
    expect((await queryOnce(after, "SELECT id FROM ledger WHERE id IN ('replicated', 'inside-lag-window')")).rows).toEqual([{ id: 'replicated' }]);
    expect(await primaryHas('inside-lag-window')).toBe(true);
    expect(await errorCodeOf(queryOnce(before, 'SELECT 1'))).toBe('ECONNREFUSED');
    expect((await driver.apply({ f: 'db-failover', value: {} })).kind).toBe('simulated-only');
  });

  it('db-restore on the promoted replica brings back its backup: later commits are gone', async () => {
    await queryOnce(driver.connectionStringFor('c1'), "INSERT INTO ledger VALUES ('in-backup')");
    expect((await driver.apply({ f: 'db-restore', value: { phase: 'backup' } })).kind).toBe('applied');
    await queryOnce(driver.connectionStringFor('c1'), "INSERT INTO ledger VALUES ('after-backup')");
    expect((await driver.apply({ f: 'db-restore', value: {} })).kind).toBe('applied');
    const rows = await queryOnce(driver.connectionStringFor('c1'), "SELECT id FROM ledger WHERE id IN ('in-backup', 'after-backup')");
    expect(rows.rows).toEqual([{ id: 'in-backup' }]);
  });

  it('db-crash stops the (promoted) server at once; db-restart recovers every committed row', async () => {
    await queryOnce(driver.connectionStringFor('c1'), "INSERT INTO ledger VALUES ('committed-before-crash')");
    await driver.apply({ f: 'db-crash', value: {} });
    expect(await errorCodeOf(queryOnce(driver.connectionStringFor('c1'), 'SELECT 1'))).not.toBe('resolved');
    await driver.apply({ f: 'db-restart', value: {} });
    const rows = await queryOnce(driver.connectionStringFor('c1'), "SELECT 1 FROM ledger WHERE id = 'committed-before-crash'");
    expect(rows.rowCount).toBe(1);
  });

  it('liveness-phase heals the links and brings a crashed server back', async () => {
    await driver.apply({ f: 'partition', value: { mode: 'down' } });
    await driver.apply({ f: 'db-crash', value: {} });
    await driver.apply({ f: 'liveness-phase', value: {} });
    expect((await queryOnce(driver.connectionStringFor('c2'), 'SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('close leaves no server or proxy port and no temp dir behind', async () => {
    const ports = [driver.cluster.primary.port, driver.cluster.replica.port];
    for (const id of ['c1', 'c2']) ports.push(Number(new URL(driver.connectionStringFor(id)).port));
    const root = dirname(driver.cluster.primary.dataDir);
    await driver.close();
    closed = true;
    for (const port of ports) expect(await portOpen(port), `port ${port}`).toBe(false);
    expect(existsSync(root)).toBe(false);
  });
});
