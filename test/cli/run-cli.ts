// Runs the `testbed` command in a child process, as a user would, and captures what it prints.

import { spawn, spawnSync } from 'node:child_process';
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

/** `runCli` without blocking the test process, so that independent cases can run side by side. */
export function runCliAsync(args: ReadonlyArray<string>, options: { readonly cwd?: string; readonly env?: Record<string, string>; readonly timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: { ...process.env, NO_COLOR: '1', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
