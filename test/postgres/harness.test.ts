// The PostgreSQL harness: an embedded server leaves no process and no temp dir after stop(), and
// admits only the run that started it (its password); DATABASE_URL mode gives each use its own
// schema; containers are skipped without Docker.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { containerRuntimeAvailable, ServerUnavailableError, startPostgres } from '../../adapters/postgres/harness.ts';
import { livePostmasterPid, processRuns as alive } from '../../adapters/postgres/local-server.ts';
import { eventually, portOpen, startFixture } from '../faults/pg-helpers.ts';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'server-then-hang.ts');


describe('postgres harness', () => {
  test('after stop() no postgres process from that data dir is left and the temp dir is gone', async () => {
    const server = await startPostgres({ kind: 'embedded' });
    expect(server.kind).toBe('embedded');
    const pid = livePostmasterPid(server.dataDir!);
    expect(pid).toBeDefined();
    const client = new pg.Client(server.connectionString);
    await client.connect();
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    expect(rows[0]!.data_directory).toBe(server.dataDir);
    await client.end();
    expect(fs.existsSync(server.baseDir!)).toBe(true);
    await server.stop();
    expect(alive(pid!)).toBe(false);
    expect(fs.existsSync(server.baseDir!)).toBe(false);
  });

  test('the embedded server admits only the run: a connection without its password is refused, on 127.0.0.1 and on the socket', async () => {
    const server = await startPostgres({ kind: 'embedded' });
    try {
      const url = new URL(server.connectionString);
      expect(url.password.length).toBeGreaterThanOrEqual(20);
      const refused = async (config: pg.ClientConfig): Promise<string> => {
        const client = new pg.Client({ ...config, connectionTimeoutMillis: 10_000 });
        client.on('error', () => {});
        try {
          await client.connect();
          await client.end();
          return 'connected';
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        }
      };
      const port = Number(url.port);
      for (const host of ['127.0.0.1', server.baseDir!]) {
        expect(await refused({ host, port, user: 'postgres', database: 'postgres', password: 'guess' }), host).toMatch(/password authentication failed/);
        expect(await refused({ host, port, user: 'postgres', database: 'postgres' }), host).not.toBe('connected');
      }
      const admitted = new pg.Client(server.connectionString);
      await admitted.connect();
      await admitted.end();
      // The file initdb read the password from is gone.
      expect(fs.existsSync(path.join(server.baseDir!, 'pwfile'))).toBe(false);
    } finally {
      await server.stop();
    }
  });

  test('a crashed server (pg_ctl stop -m immediate) is still cleaned up by stop()', async () => {
    const server = await startPostgres({ kind: 'embedded' });
    server.pgCtl!(['-m', 'immediate', '-w', 'stop']);
    expect(livePostmasterPid(server.dataDir!)).toBeUndefined();
    server.pgCtl!(['-w', '-l', `${server.baseDir}/server.log`, '-o', server.serverFlags!, 'start']);
    const pid = livePostmasterPid(server.dataDir!);
    expect(pid).toBeDefined();
    await server.stop();
    expect(alive(pid!)).toBe(false);
    expect(fs.existsSync(server.baseDir!)).toBe(false);
  });

  test('a process killed with SIGKILL before stop() leaves no server, port or temp dir', async () => {
    const { child, started } = await startFixture<{ baseDir: string; pid: number; port: number }>(FIXTURE, 'server');
    expect(alive(started.pid)).toBe(true);
    child.kill('SIGKILL');
    expect(await eventually(async () => !alive(started.pid), 10_000)).toBe(true);
    expect(await eventually(async () => !fs.existsSync(started.baseDir), 10_000)).toBe(true);
    expect(await portOpen(started.port)).toBe(false);
  });

  test('DATABASE_URL mode: each use gets its own fresh schema, dropped by stop()', async () => {
    const host = await startPostgres({ kind: 'embedded' });
    try {
      const [a, b] = await Promise.all([startPostgres({ kind: 'url', url: host.connectionString }), startPostgres({ kind: 'url', url: host.connectionString })]);
      expect(a.kind).toBe('url');
      expect(a.schema).not.toBe(b.schema);
      const client = new pg.Client(host.connectionString);
      await client.connect();
      const schemas = async () =>
        (await client.query<{ n: string }>('SELECT nspname AS n FROM pg_namespace WHERE nspname = ANY($1)', [[a.schema, b.schema]])).rows.map((r) => r.n).sort();
      expect(await schemas()).toEqual([a.schema, b.schema].sort());
      await a.stop();
      await b.stop();
      expect(await schemas()).toEqual([]);
      await client.end();
    } finally {
      await host.stop();
    }
  });

  test.runIf(!containerRuntimeAvailable())('containers: skipped with a clear message when no container runtime is reachable', async () => {
    await expect(startPostgres({ kind: 'container' })).rejects.toThrow(ServerUnavailableError);
    await expect(startPostgres({ kind: 'container' })).rejects.toThrow(/skipped: no container runtime/);
  });

  test.runIf(containerRuntimeAvailable())('containers: a PostgreSQL container starts and stops', async () => {
    const server = await startPostgres({ kind: 'container' });
    const client = new pg.Client(server.connectionString);
    await client.connect();
    await client.end();
    await server.stop();
  });
});
