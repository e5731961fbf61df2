// A real primary/replica pair under real faults: replication, the lost-commit window of a failover after replication is cut (seed 000 §302, DB failover), crash recovery, killed sessions (seed 000 §286), and restore of an older data dir (seed 000 §272–§276).

import { dirname } from 'node:path';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startFaultProxy, type FaultProxyServer } from '../../adapters/faults/proxy/api-server.ts';
import { PostgresCluster } from '../../adapters/faults/postgres-cluster.ts';
import { errorCodeOf, eventually, portOpen, postmasterPid, processAlive } from './pg-helpers.ts';

let faultProxy: FaultProxyServer;
let cluster: PostgresCluster;
let closed = false;

beforeAll(async () => {
  faultProxy = await startFaultProxy({ port: 0 });
  cluster = await PostgresCluster.start({ faultProxyUrl: faultProxy.url });
  await cluster.query('primary', 'CREATE TABLE note (id text PRIMARY KEY)');
});

afterAll(async () => {
  if (!closed) await cluster?.close();
  await faultProxy?.close();
});

const insert = (id: string) => cluster.query('primary', 'INSERT INTO note VALUES ($1)', [id]);
const has = async (server: 'primary' | 'replica', id: string): Promise<boolean> =>
  (await cluster.query(server, 'SELECT 1 FROM note WHERE id = $1', [id])).length === 1;

describe('PostgresCluster', () => {
  it('streams a row written on the primary to the replica', async () => {
    await insert('replicated');
    expect(await cluster.waitForReplicaCatchUp(10_000)).toBe(true);
    expect(await has('replica', 'replicated')).toBe(true);
    expect(await cluster.query('replica', 'SELECT pg_is_in_recovery() AS standby')).toEqual([{ standby: true }]);
  });

  it('killBackends ends an in-flight session with 57P01 (admin_shutdown) and spares the others', async () => {
    const victim = new pg.Client({ connectionString: cluster.primary.connectionString, application_name: 'victim' });
    const bystander = new pg.Client({ connectionString: cluster.primary.connectionString, application_name: 'bystander' });
    await victim.connect();
    await bystander.connect();
    victim.on('error', () => undefined);
    const inFlight = errorCodeOf(victim.query('SELECT pg_sleep(30)'));
    const active = async (): Promise<boolean> =>
      (await cluster.query('primary', "SELECT 1 FROM pg_stat_activity WHERE application_name = 'victim' AND state = 'active'")).length === 1;
    expect(await eventually(active, 5_000)).toBe(true);
    expect(await cluster.killBackends('primary', { applicationName: 'victim' })).toBe(1);
    expect(await inFlight).toBe('57P01');
    expect((await bystander.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await bystander.end();
    await victim.end().catch(() => undefined);
  });

  it('keeps committed rows through a crash (stop -m immediate) and restart', async () => {
    await insert('before-crash');
    const session = new pg.Client({ connectionString: cluster.primary.connectionString });
    await session.connect();
    session.on('error', () => undefined);
    await cluster.crash('primary');
    expect(cluster.isRunning('primary')).toBe(false);
    expect(await errorCodeOf(session.query('SELECT 1'))).not.toBe('resolved');
    await cluster.restart('primary');
    expect(await has('primary', 'before-crash')).toBe(true);
    // The replica reconnects through the link by itself and catches up.
    await insert('after-restart');
    expect(await eventually(() => has('replica', 'after-restart'), 15_000)).toBe(true);
  });

  it('loses commits made on the primary after replication is cut, when the replica is promoted', async () => {
    await insert('before-cut');
    expect(await eventually(() => has('replica', 'before-cut'), 10_000)).toBe(true);
    const link = cluster.replicationLink;
    await link.update({ enabled: false, listen: link.listen, upstream: link.upstream });
    await insert('after-cut');
    expect(await has('primary', 'after-cut')).toBe(true);
    const { durationMs } = await cluster.promote('replica');
    expect(durationMs).toBeGreaterThan(0);
    expect(await cluster.query('replica', 'SELECT pg_is_in_recovery() AS standby')).toEqual([{ standby: false }]);
    expect(await has('replica', 'before-cut')).toBe(true);
    expect(await has('replica', 'after-cut')).toBe(false);
    // The promoted replica takes writes of its own: the two histories have diverged.
    await cluster.query('replica', "INSERT INTO note VALUES ('on-new-primary')");
    expect(await has('primary', 'on-new-primary')).toBe(false);
  });

  it('restoreFrom brings back the data dir as it was when the copy was taken', async () => {
    await insert('in-backup');
    const copy = await cluster.takeDataDirCopy('primary');
    expect(cluster.isRunning('primary')).toBe(true);
    await insert('after-backup');
    await cluster.restoreFrom(copy);
    expect(await has('primary', 'in-backup')).toBe(true);
    expect(await has('primary', 'after-backup')).toBe(false);
  });

  it('close leaves no server process, port or temp dir behind', async () => {
    const pids = [postmasterPid(cluster.primary.dataDir), postmasterPid(cluster.replica.dataDir)];
    expect(pids.every((pid) => pid !== undefined && processAlive(pid))).toBe(true);
    const ports = [cluster.primary.port, cluster.replica.port, Number(cluster.replicationLink.listen.split(':').pop())];
    const root = dirname(cluster.primary.dataDir);
    await cluster.close();
    closed = true;
    expect(await eventually(async () => pids.every((pid) => !processAlive(pid!)), 5_000)).toBe(true);
    for (const port of ports) expect(await portOpen(port)).toBe(false);
    expect(existsSync(root)).toBe(false);
  });
});
