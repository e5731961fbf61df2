// Helpers for the real-PostgreSQL fault tests: bounded polling, error codes, and the leak check
// that a closed cluster left no process, port or directory behind.

import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import pg from 'pg';

/** Polls `probe` every 50 ms until it returns true or `deadlineMs` passes; returns whether it did. */
export async function eventually(probe: () => Promise<boolean>, deadlineMs: number): Promise<boolean> {
  const end = performance.now() + deadlineMs;
  for (;;) {
    if (await probe().catch(() => false)) return true;
    if (performance.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The SQLSTATE (or socket error code) a promise rejected with, or `resolved`. */
export async function errorCodeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    return code ?? message ?? String(error);
  }
}

/** One query on a fresh connection; `connectTimeoutMs` bounds how long a cut link can stall it. */
export async function queryOnce(connectionString: string, sql: string, params: unknown[] = [], connectTimeoutMs = 5_000): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: connectTimeoutMs });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

export { postmasterPid, processRuns as processAlive } from '../../adapters/postgres/local-server.ts';

/** Whether anything accepts TCP connections on a loopback port. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Runs a fixture script (TypeScript, through tsx) that prints one JSON line once it has started
 * what it starts; resolves with the process and that line, so a test can kill it mid-flight.
 */
export function startFixture<T>(file: string, what: string): Promise<{ readonly child: ChildProcess; readonly started: T }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what} fixture did not start within 30 s`)), 30_000);
    child.stdout!.on('data', (data: Buffer) => {
      out += data.toString();
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      resolve({ child, started: JSON.parse(out.slice(0, out.indexOf('\n'))) as T });
    });
    child.once('exit', (code) => reject(new Error(`${what} fixture exited early with ${String(code)}`)));
  });
}
