// `npm run soak:kill [-- --kills 100] [--seed 1] [--json]`: SIGKILLs `testbed` at random moments
// of PostgreSQL runs (embedded server) and real-fault runs (a primary/replica pair), then waits for
// the clean-up the testbed promises when its process dies without running a handler: no server
// process, no temp or data directory, no shared memory segment (POSIX in /dev/shm, System V) left.
// Only the main process is killed, the hardest case: nothing of it runs after the kill, so the
// watchdogs it started must do everything. Exit 0 when every kill left nothing behind, 1 otherwise.
// The command and the moment of each kill are drawn from the seed; the machine's timing decides
// where in the run that moment falls, so a kill is not replayed exactly. Only what each killed run
// made counts (own-traces.ts), so other checkouts' servers and runs on the machine do not.

import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import seedrandom from 'seedrandom';
import { OwnTraces } from './own-traces.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'cli/bin.mjs');

/** The commands killed, each with the window (ms after start) the kill is drawn from. */
const COMMANDS: ReadonlyArray<{ readonly name: string; readonly args: (seed: number) => string[]; readonly windowMs: number }> = [
  { name: 'run on PostgreSQL', args: (seed) => ['run', '--scenario', 'standard-mix', '--seed', String(seed), '--adapter', 'postgres'], windowMs: 3_000 },
  { name: 'sweep on PostgreSQL', args: (seed) => ['sweep', '--scenario', 'stale-holder', '--seeds', `${seed}..${seed + 2}`, '--adapter', 'postgres'], windowMs: 4_000 },
  { name: 'stress on PostgreSQL', args: (seed) => ['stress', '--adapter', 'postgres', '--clients', '8', '--duration', '2s', '--seed', String(seed)], windowMs: 4_500 },
  { name: 'real-fault failover', args: () => ['run', '--scenario', 'db-failover-unmitigated', '--seed', '1', '--adapter', 'postgres', '--faults', 'real'], windowMs: 6_500 },
  { name: 'real-fault restore', args: () => ['run', '--scenario', 'restore', '--seed', '1', '--adapter', 'postgres', '--faults', 'real'], windowMs: 6_500 },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Kill {
  readonly index: number;
  readonly command: string;
  readonly killAtMs: number;
  /** The process had already exited when its moment came. */
  readonly exitedFirst: boolean;
  /** Time from the kill until nothing was left. */
  readonly cleanMs: number | null;
  readonly left: ReadonlyArray<string>;
}

const CLEAN_WAIT_MS = 30_000;

async function killOnce(index: number, random: () => number, scratch: string): Promise<Kill> {
  const command = COMMANDS[Math.floor(random() * COMMANDS.length)]!;
  const killAtMs = Math.round(100 + random() * command.windowMs);
  // A TMPDIR of the run's own, which the server user can enter (as root the server runs as postgres).
  const tmp = mkdtempSync(path.join(scratch, `run-${index}-`));
  chmodSync(tmp, 0o755);
  const child = spawn(process.execPath, [BIN, ...command.args(1 + Math.floor(random() * 1000))], { cwd: scratch, stdio: 'ignore', env: { ...process.env, NO_COLOR: '1', TMPDIR: tmp } });
  const own = new OwnTraces(tmp, child.pid!);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = performance.now() + killAtMs;
  let exitedFirst = false;
  // Watch the run while it lives: short-lived helpers and the segments its servers map.
  while (!exitedFirst && performance.now() < deadline) {
    own.observe();
    exitedFirst = await Promise.race([exited.then(() => true), sleep(Math.min(100, Math.max(0, deadline - performance.now()))).then(() => false)]);
  }
  if (!exitedFirst) {
    own.observe();
    child.kill('SIGKILL');
  }
  await exited;
  const killed = performance.now();
  own.observe();
  let remaining = own.left();
  while (remaining.length > 0 && performance.now() - killed < CLEAN_WAIT_MS) {
    await sleep(250);
    own.observe();
    remaining = own.left();
  }
  return { index, command: command.name, killAtMs, exitedFirst, cleanMs: remaining.length === 0 ? Math.round(performance.now() - killed) : null, left: remaining };
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 1) {
    process.stderr.write(`kill-soak: bad ${name} "${process.argv[at + 1]}": expected a positive integer\n`);
    process.exit(2);
  }
  return value;
}

const kills = option('--kills', 100);
const seed = option('--seed', 1);
const json = process.argv.includes('--json');
const random = seedrandom(`kill-soak:${seed}`);
const scratch = mkdtempSync(path.join(tmpdir(), 'kill-soak-'));
chmodSync(scratch, 0o755);
const results: Kill[] = [];
try {
  // A run that ends before its moment is checked too, but does not count as a kill: draw again.
  for (let i = 1; results.filter((k) => !k.exitedFirst).length < kills && i <= kills * 3; i++) {
    const kill = await killOnce(i, random, scratch);
    results.push(kill);
    const what = kill.exitedFirst ? 'exited before its kill (not counted)' : `killed at ${kill.killAtMs} ms`;
    const outcome = kill.left.length === 0 ? `clean after ${kill.cleanMs} ms` : `LEFT ${kill.left.length}: ${kill.left.slice(0, 3).join('; ')}`;
    process.stderr.write(`${String(results.filter((k) => !k.exitedFirst).length).padStart(3)}/${kills} ${kill.command}, ${what}: ${outcome}\n`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const leaky = results.filter((k) => k.left.length > 0);
const cleanTimes = results.flatMap((k) => (k.cleanMs === null ? [] : [k.cleanMs])).sort((a, b) => a - b);
const summary = {
  runs: results.length,
  kills: results.filter((k) => !k.exitedFirst).length,
  leaky: leaky.length,
  cleanMsMedian: cleanTimes[Math.floor((cleanTimes.length - 1) / 2)] ?? null,
  cleanMsMax: cleanTimes.at(-1) ?? null,
  killsByCommand: Object.fromEntries(COMMANDS.map((c) => [c.name, results.filter((k) => k.command === c.name && !k.exitedFirst).length])),
};
if (json) process.stdout.write(`${JSON.stringify({ seed, ...summary, leaks: leaky }, null, 2)}\n`);
else {
  process.stdout.write(`${summary.kills} SIGKILLs mid-run (${summary.runs} runs), ${summary.leaky} left something behind; clean-up took ${summary.cleanMsMedian} ms (median), ${summary.cleanMsMax} ms (max)\n`);
  for (const k of leaky) process.stdout.write(`  kill ${k.index} (${k.command} at ${k.killAtMs} ms): ${k.left.join('; ')}\n`);
}
process.exitCode = leaky.length === 0 && summary.kills === kills ? 0 : 1;
