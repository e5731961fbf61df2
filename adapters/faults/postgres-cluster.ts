// A primary and a streaming replica built from the embedded PostgreSQL binaries, for real faults:
// the replica streams from the primary through a fault-proxy link (so replication can be cut),
// and each server can be crashed, restarted, promoted, have backends killed, and have its data
// dir copied and later restored. Everything lives in one temp dir that close() removes.

import { constants } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { access, appendFile, chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Toxiproxy, type Proxy } from 'toxiproxy-node-client';
import { freePort } from '../postgres/free-port.ts';
import { checkServerCanEnter, guardServers, type ServerGuard } from '../postgres/local-server.ts';
import { copyTree, makeServerDir, runAsServer } from './postgres-binaries.ts';

export type ServerName = 'primary' | 'replica';

export interface PgServer {
  readonly name: ServerName;
  readonly port: number;
  readonly dataDir: string;
  /** Direct connection (no proxy), superuser `postgres`, database `postgres`. */
  readonly connectionString: string;
}

export interface DataDirCopy {
  readonly server: ServerName;
  readonly dir: string;
}

/** Which backends `killBackends` terminates; every field given must match. */
export interface BackendFilter {
  readonly applicationName?: string;
  readonly user?: string;
  readonly pid?: number;
}

const REPLICATION_USER = 'replicator';

/** Settings for fast, throwaway servers: no durability, small memory and WAL (1 MB segments keep copies small), replication on. */
const SERVER_SETTINGS = `
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
fsync = off
full_page_writes = off
shared_buffers = 16MB
max_connections = 40
wal_level = replica
max_wal_senders = 4
wal_keep_size = 16MB
min_wal_size = 4MB
max_wal_size = 32MB
hot_standby = on
wal_retrieve_retry_interval = 200ms
wal_receiver_status_interval = 1s
log_min_messages = warning
`;

/**
 * Data dirs hold about a thousand small files; copying them on a virtual disk took ~3 s here and
 * ~0.3 s on tmpfs, so memory-backed /dev/shm is preferred where there is one.
 */
async function defaultBaseDir(): Promise<string> {
  try {
    await access('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

export class PostgresCluster {
  private readonly running = new Set<ServerName>();
  private copies = 0;

  private constructor(
    private readonly root: string,
    readonly primary: PgServer,
    readonly replica: PgServer,
    /** Fault-proxy link that carries replication from the replica to the primary. */
    readonly replicationLink: Proxy,
    private readonly reaper: ServerGuard,
  ) {}

  static async start(options: {
    readonly faultProxyUrl: string;
    /** Prefix of the replication link's proxy name. */
    readonly name?: string;
    /** Where the temp dir goes; default /dev/shm when writable, else the OS temp dir. */
    readonly baseDir?: string;
  }): Promise<PostgresCluster> {
    // Guarded before it exists: a process killed between making the dir and guarding it would
    // leave the dir behind (seen under `npm run soak:kill`). mkdir fails on a name that exists.
    // Named by the process too, so a process can tell its own clusters from those of others.
    const root = join(options.baseDir ?? (await defaultBaseDir()), `pg-cluster-${process.pid}-${randomBytes(6).toString('hex')}`);
    const dataDir = (name: ServerName): string => join(root, name);
    const reaper = guardServers(root, () => [dataDir('primary'), dataDir('replica')]);
    let replicationLink: Proxy | undefined;
    try {
      await mkdir(root, { mode: 0o700 });
      // The server user must traverse the root to reach its own data dirs.
      await chmod(root, 0o755);
      const server = async (name: ServerName): Promise<PgServer> => {
        const port = await freePort();
        return { name, port, dataDir: dataDir(name), connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres` };
      };
      const primary = await server('primary');
      const replica = await server('replica');
      const proxyName = `${options.name ?? 'pg'}-replication-${primary.port}`;
      replicationLink = await new Toxiproxy(options.faultProxyUrl).createProxy({
        name: proxyName,
        listen: '127.0.0.1:0',
        upstream: `127.0.0.1:${primary.port}`,
      });
      const cluster = new PostgresCluster(root, primary, replica, replicationLink, reaper);
      await cluster.initPrimary();
      await cluster.cloneReplica();
      await cluster.startServer('primary');
      await cluster.startServer('replica');
      return cluster;
    } catch (error) {
      await replicationLink?.remove().catch(() => undefined);
      await runAsServer('pg_ctl', ['stop', '-m', 'immediate', '-D', dataDir('primary')]).catch(() => undefined);
      await runAsServer('pg_ctl', ['stop', '-m', 'immediate', '-D', dataDir('replica')]).catch(() => undefined);
      await rm(root, { recursive: true, force: true });
      // Last, as in close(): a death during the clean-up above still leaves it to the watchdog.
      reaper.release();
      throw error;
    }
  }

  server(name: ServerName): PgServer {
    return name === 'primary' ? this.primary : this.replica;
  }

  isRunning(name: ServerName): boolean {
    return this.running.has(name);
  }

  private async initPrimary(): Promise<void> {
    const { dataDir } = this.primary;
    await makeServerDir(dataDir);
    checkServerCanEnter(dataDir);
    await runAsServer('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '--locale=C', '-E', 'UTF8', '--wal-segsize=1']);
    await appendFile(join(dataDir, 'postgresql.conf'), SERVER_SETTINGS);
    await appendFile(join(dataDir, 'pg_hba.conf'), `host replication ${REPLICATION_USER} 127.0.0.1/32 trust\n`);
    await this.startServer('primary');
    await this.query('primary', `CREATE ROLE ${REPLICATION_USER} WITH REPLICATION LOGIN`);
    await this.stopServer('primary', 'fast');
  }

  /** Copies the stopped primary and makes the copy a standby that streams through the link. */
  private async cloneReplica(): Promise<void> {
    const { dataDir } = this.replica;
    await copyTree(this.primary.dataDir, dataDir);
    await writeFile(join(dataDir, 'standby.signal'), '');
    const conninfo = `host=127.0.0.1 port=${this.replicationLink.listen.split(':').pop()} user=${REPLICATION_USER} application_name=replica`;
    await appendFile(join(dataDir, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo}'\n`);
    await makeServerDir(dataDir);
  }

  /** `pg_ctl start -w`: waits for "ready" on a primary and for "standby" on a replica. */
  async startServer(name: ServerName): Promise<void> {
    const { dataDir, port } = this.server(name);
    const log = join(dataDir, 'server.log');
    try {
      await runAsServer('pg_ctl', ['start', '-w', '-t', '30', '-D', dataDir, '-l', log, '-o', `-p ${port}`]);
    } catch (error) {
      const tail = (await readFile(log, 'utf8').catch(() => '')).split('\n').slice(-10).join('\n');
      throw new Error(`${name} did not start: ${error instanceof Error ? error.message : String(error)}\n${tail}`);
    }
    this.running.add(name);
  }

  async stopServer(name: ServerName, mode: 'fast' | 'immediate'): Promise<void> {
    await runAsServer('pg_ctl', ['stop', '-w', '-t', '30', '-m', mode, '-D', this.server(name).dataDir]);
    this.running.delete(name);
  }

  /** Runs one statement on a direct connection and closes it. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(name: ServerName, sql: string, params: unknown[] = []): Promise<R[]> {
    const client = new pg.Client({ connectionString: this.server(name).connectionString, application_name: 'cluster-admin' });
    await client.connect();
    try {
      return (await client.query<R>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  /**
   * Waits (bounded) until the replica has replayed everything the primary has written so far;
   * returns whether it got there. Polls every 20 ms.
   */
  async waitForReplicaCatchUp(timeoutMs: number): Promise<boolean> {
    const [current] = await this.query<{ lsn: string }>('primary', 'SELECT pg_current_wal_lsn()::text AS lsn');
    if (current === undefined) throw new Error('pg_current_wal_lsn() returned no row');
    const { lsn } = current;
    const deadline = performance.now() + timeoutMs;
    do {
      const [row] = await this.query<{ done: boolean }>('replica', 'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn]);
      if (row?.done === true) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    } while (performance.now() < deadline);
    return false;
  }

  /** Promotes a standby (`pg_ctl promote -w`) and returns how long promotion took. */
  async promote(name: ServerName): Promise<{ readonly durationMs: number }> {
    const started = performance.now();
    await runAsServer('pg_ctl', ['promote', '-w', '-t', '30', '-D', this.server(name).dataDir]);
    return { durationMs: performance.now() - started };
  }

  /** A crash: `pg_ctl stop -m immediate` (SIGQUIT, no checkpoint; recovery runs on restart). */
  async crash(name: ServerName): Promise<void> {
    await this.stopServer(name, 'immediate');
  }

  async restart(name: ServerName): Promise<void> {
    await this.startServer(name);
  }

  /** Terminates matching client backends with pg_terminate_backend; returns how many. */
  async killBackends(name: ServerName, filter: BackendFilter): Promise<number> {
    // The filter runs in a subquery so that pg_terminate_backend is only ever called on rows it kept.
    const rows = await this.query<{ pid: number; terminated: boolean }>(
      name,
      `SELECT pid, pg_terminate_backend(pid) AS terminated FROM (
         SELECT pid FROM pg_stat_activity
          WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()
            AND ($1::text IS NULL OR application_name = $1)
            AND ($2::text IS NULL OR usename = $2)
            AND ($3::int IS NULL OR pid = $3)
       ) AS matching`,
      [filter.applicationName ?? null, filter.user ?? null, filter.pid ?? null],
    );
    return rows.filter((row) => row.terminated).length;
  }

  /** A consistent copy: CHECKPOINT, clean stop, copy the data dir, start again. */
  async takeDataDirCopy(name: ServerName): Promise<DataDirCopy> {
    const wasRunning = this.isRunning(name);
    if (wasRunning) {
      await this.query(name, 'CHECKPOINT');
      await this.stopServer(name, 'fast');
    }
    this.copies += 1;
    const dir = join(this.root, `copy-${this.copies}-${name}`);
    await copyTree(this.server(name).dataDir, dir);
    if (wasRunning) await this.startServer(name);
    return { server: name, dir };
  }

  /** Stops the server, replaces its data dir with the copy, and starts it again. */
  async restoreFrom(copy: DataDirCopy): Promise<void> {
    const { dataDir } = this.server(copy.server);
    if (this.isRunning(copy.server)) await this.stopServer(copy.server, 'fast');
    await rm(dataDir, { recursive: true, force: true });
    await copyTree(copy.dir, dataDir);
    await this.startServer(copy.server);
  }

  async close(): Promise<void> {
    for (const name of ['replica', 'primary'] as const) {
      if (this.isRunning(name)) await this.stopServer(name, 'immediate').catch(() => undefined);
    }
    await this.replicationLink.remove().catch(() => undefined);
    await rm(this.root, { recursive: true, force: true });
    this.reaper.release();
  }
}
