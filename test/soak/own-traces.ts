// What one killed testbed run may leave behind, attributed to that run alone, so the kill soak
// gives a verdict on a busy machine (another checkout's servers and runs alongside): each run gets
// a TMPDIR of its own, under which every dir it makes lies and which every server and watchdog it
// starts names on its command line; its processes are those and their children (by parent pid,
// each known by pid and start time, so a reused pid is not taken for ours); its shared memory is
// the POSIX segments its processes map and the System V segments they created. Traces are
// gathered while the run lives and after the kill, for as long as the clean-up is awaited.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Dirs the testbed makes under TMPDIR (harness, real-fault cluster, gate suites). */
const TEMP_PREFIXES = ['testbed-pg-', 'pg-cluster-', 'testbed-suites-'];

interface Proc {
  readonly pid: number;
  readonly ppid: number;
  readonly start: string;
  readonly cmdline: string;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces: the fields after it are split.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    return { pid, ppid: Number(fields[1]), start: fields[19]!, cmdline };
  } catch {
    return null;
  }
}

function allProcs(): Proc[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .flatMap((p) => readProc(Number(p)) ?? []);
}

export class OwnTraces {
  /** pid → start time of every process known to be the run's. */
  private readonly procs = new Map<number, string>();
  private readonly posix = new Set<string>();

  constructor(
    private readonly tmpdir: string,
    rootPid: number,
  ) {
    const root = readProc(rootPid);
    if (root !== null) this.procs.set(root.pid, root.start);
  }

  /** Adds the run's processes alive now (named by its TMPDIR, or children of its own) and the segments they map. */
  observe(): void {
    const procs = allProcs();
    let grew = true;
    while (grew) {
      grew = false;
      for (const p of procs) {
        if (this.procs.get(p.pid) === p.start) continue;
        if (p.cmdline.includes(this.tmpdir) || this.procs.has(p.ppid)) {
          this.procs.set(p.pid, p.start);
          grew = true;
        }
      }
    }
    for (const pid of this.procs.keys()) {
      try {
        for (const line of readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')) {
          const at = line.indexOf('/dev/shm/PostgreSQL.');
          if (at >= 0) this.posix.add(line.slice(at).replace(/ \(deleted\)$/, ''));
        }
      } catch {
        // Gone, or not ours to read.
      }
    }
  }

  /** What of the run is still there. */
  left(): string[] {
    const found: string[] = [];
    for (const [pid, start] of this.procs) {
      const p = readProc(pid);
      if (p !== null && p.start === start) found.push(`process ${pid} ${p.cmdline.slice(0, 160)}`);
    }
    try {
      for (const name of readdirSync(this.tmpdir)) if (TEMP_PREFIXES.some((prefix) => name.startsWith(prefix))) found.push(path.join(this.tmpdir, name));
    } catch {
      // No TMPDIR left: nothing in it either.
    }
    for (const segment of this.posix) if (existsSync(segment)) found.push(segment);
    found.push(...this.sysv());
    return found;
  }

  /** System V segments that one of the run's processes created. */
  private sysv(): string[] {
    let table: string[];
    try {
      table = readFileSync('/proc/sysvipc/shm', 'utf8').trim().split('\n');
    } catch {
      return [];
    }
    const header = table[0]!.trim().split(/\s+/);
    const cpid = header.indexOf('cpid');
    return table.slice(1).flatMap((line) => {
      const cols = line.trim().split(/\s+/);
      return this.procs.has(Number(cols[cpid])) ? [`sysv shm ${cols[0]} ${cols[1]} (created by ${cols[cpid]})`] : [];
    });
  }
}
