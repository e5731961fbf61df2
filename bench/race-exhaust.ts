// The time `npx testbed race --adapter postgres` takes to exhaust every pair of the port's command
// kinds on the built-in store, as a user runs it (the CLI in a child process, its defaults: four
// workers, and PCT samples inside functions after each case), with its own count of cases and
// schedules. Minutes on two cores: the full bench only.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface RaceExhaust {
  readonly seconds: number;
  readonly cases: number;
  readonly schedules: number;
  readonly prunedBranches: number;
  readonly exhausted: boolean;
  readonly exitCode: number | null;
}

const BIN = path.resolve(import.meta.dirname, '../cli/bin.mjs');

export async function measureRaceExhaust(): Promise<RaceExhaust> {
  const out = mkdtempSync(path.join(tmpdir(), 'testbed-bench-race-'));
  try {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'race', '--adapter', 'postgres', '--json', '--out', out], { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const seconds = (performance.now() - started) / 1000;
    let summary: { cases: number; schedules: number; prunedBranches: number; exhausted: boolean };
    try {
      summary = JSON.parse(stdout) as typeof summary;
    } catch {
      throw new Error(`testbed race exited ${String(exitCode)} without its JSON summary`);
    }
    return { seconds, cases: summary.cases, schedules: summary.schedules, prunedBranches: summary.prunedBranches, exhausted: summary.exhausted, exitCode };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
