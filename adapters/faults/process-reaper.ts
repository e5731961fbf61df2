// Makes sure no PostgreSQL server and no temp dir outlives the process that started them. A normal
// close stops everything itself; this covers the rest: a process `exit` handler for exits that skip
// close, and a small watchdog shell that notices when this process is gone (even by SIGKILL, when
// no handler runs) and sends the servers SIGQUIT, PostgreSQL's immediate shutdown, then removes the dir.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Seconds between the watchdog's checks that this process still exists. */
const WATCHDOG_POLL_S = 0.5;

function postmasterPid(dataDir: string): number | undefined {
  const file = join(dataDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

export interface Reaper {
  /** Stops the watchdog and forgets the root dir: call after a clean close. */
  release(): void;
}

const live = new Map<string, () => ReadonlyArray<string>>();
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

/** Guards `root` (a temp dir) and the servers whose data dirs `dataDirs()` lists at the time. */
export function guardServers(root: string, dataDirs: () => ReadonlyArray<string>): Reaper {
  live.set(root, dataDirs);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const [dir, dirs] of live) reapNow(dir, dirs());
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
      live.delete(root);
      // The watchdog leads its own process group (detached), so this also ends its current `sleep`.
      if (watchdog.pid !== undefined && watchdog.exitCode === null) process.kill(-watchdog.pid, 'SIGKILL');
    },
  };
}
