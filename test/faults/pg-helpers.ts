// Helpers for the real-PostgreSQL fault tests: bounded polling, error codes, and the leak check
// that a closed cluster left no process, port or directory behind.

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
