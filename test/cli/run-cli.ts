// Runs the `testbed` command in a child process, as a user would, and captures what it prints.

import { spawnSync } from 'node:child_process';
import path from 'node:path';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'cli/bin.mjs');

export function runCli(args: ReadonlyArray<string>, options: { readonly cwd?: string; readonly env?: Record<string, string>; readonly timeoutMs?: number } = {}): CliResult {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    timeout: options.timeoutMs ?? 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
