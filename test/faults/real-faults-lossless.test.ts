// Without a configured replication lag, a db-failover loses no commit: the simulator models the lag window in its own image (seed 000 §302, DB failover), so the real replica catches up before it is promoted.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealFaultDriver, type RealFaultDriver } from '../../adapters/faults/real-faults.ts';
import type { PostgresCluster } from '../../adapters/faults/postgres-cluster.ts';
import { errorCodeOf, queryOnce } from './pg-helpers.ts';

let driver: RealFaultDriver & { readonly cluster: PostgresCluster };

beforeAll(async () => {
  // One client for the whole run, as a store with a single connection pool uses it.
  driver = await startRealFaultDriver({ clients: ['store'] });
  await queryOnce(driver.connectionStringFor('store'), 'CREATE TABLE ledger (id text PRIMARY KEY)');
});

afterAll(async () => {
  await driver?.close();
});

describe('RealFaultDriver without replication lag', () => {
  it('a partition of a controller that has no connection of its own stays in the simulator', async () => {
    const outcome = await driver.apply({ f: 'partition', value: { from: 'c1', to: 'db', oneWay: false, durationMs: 100 } });
    expect(outcome).toMatchObject({ kind: 'simulated-only', reason: expect.stringContaining('c1 has no database connection') });
  });

  it('db-failover right after a commit keeps that commit on the promoted replica', async () => {
    const before = driver.connectionStringFor('store');
    await queryOnce(before, "INSERT INTO ledger VALUES ('just-committed')");
    const outcome = await driver.apply({ f: 'db-failover', value: { lagMs: 50, imageTime: 0 } });
    expect(outcome).toMatchObject({ kind: 'applied', action: expect.stringContaining('replica caught up first') });
    const after = driver.connectionStringFor('store');
    expect((await queryOnce(after, "SELECT id FROM ledger WHERE id = 'just-committed'")).rows).toEqual([{ id: 'just-committed' }]);
    expect(await errorCodeOf(queryOnce(before, 'SELECT 1'))).toBe('ECONNREFUSED');
  });
});
