// Memory of a long sweep through the CLI, as a user runs it: `testbed sweep --workers 1` in a
// child process over a short and a four times longer range of seeds, on the memory store and on a
// store module (the path that also serves PostgreSQL and `exec:` stores: one run in flight at a
// time, each dropped once tallied). The child's peak RSS is read from the kernel's own account of
// the process (`process.resourceUsage().maxRSS`, written at exit by a preloaded hook), so a
// sweep that kept its runs shows as RSS that grows with the seeds.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const BIN = path.resolve(import.meta.dirname, '../cli/bin.mjs');
const MEMORY = path.resolve(import.meta.dirname, '../adapters/memory.ts');
const SCENARIO = 'stale-holder';

export interface CliSweepMemory {
  readonly adapter: 'memory' | 'module';
  readonly seeds: readonly [short: number, long: number];
  /** Peak RSS of each child, in MB. */
  readonly peakRssMb: readonly [short: number, long: number];
  /** Peak RSS of the long sweep over that of the short one: about 1 when nothing accumulates. */
  readonly growth: number;
  readonly exitCodes: readonly [number | null, number | null];
}

async function peakRssOf(args: ReadonlyArray<string>, dir: string): Promise<{ readonly mb: number; readonly exitCode: number | null }> {
  const report = path.join(dir, `rss-${Math.random().toString(36).slice(2)}.txt`);
  const hook = path.join(dir, 'rss-hook.mjs');
  writeFileSync(hook, `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.TESTBED_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n`);
  const child = spawn(process.execPath, ['--import', pathToFileURL(hook).href, BIN, ...args], {
    stdio: ['ignore', 'ignore', 'ignore'],
    env: { ...process.env, TESTBED_BENCH_RSS_FILE: report },
  });
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  // maxRSS is in kilobytes.
  return { mb: Number(readFileSync(report, 'utf8')) / 1024, exitCode };
}

export async function measureCliSweepMemory(adapter: 'memory' | 'module', seeds: readonly [number, number]): Promise<CliSweepMemory> {
  const dir = mkdtempSync(path.join(tmpdir(), 'testbed-bench-rss-'));
  try {
    let adapterArg = 'memory';
    if (adapter === 'module') {
      adapterArg = path.join(dir, 'store.mjs');
      writeFileSync(adapterArg, `import createMemoryStore from ${JSON.stringify(MEMORY)};\nexport default (options) => createMemoryStore(options);\n`);
    }
    const sweep = (n: number) => ['sweep', '--scenario', SCENARIO, '--seeds', `1..${n}`, '--workers', '1', '--adapter', adapterArg, '--json', '--no-shrink'];
    const short = await peakRssOf(sweep(seeds[0]), dir);
    const long = await peakRssOf(sweep(seeds[1]), dir);
    return { adapter, seeds, peakRssMb: [short.mb, long.mb], growth: long.mb / short.mb, exitCodes: [short.exitCode, long.exitCode] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
