// The PostgreSQL binaries are run from where the server's OS user can reach them: a staged copy
// is readable and runnable by every user, made once, and safe when processes race to make it.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { serverBinaries, stageTree } from '../../adapters/postgres/binaries.ts';
import { ServerEnvironmentError, serverUser } from '../../adapters/postgres/local-server.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-stage-');
const STAGE_FIXTURE = path.join(import.meta.dirname, 'fixtures', 'stage-tree.ts');

/** A small tree shaped like the package's native dir, closed to everyone but its owner. */
function privateTree(files = 1): string {
  const source = path.join(scratch(), 'native');
  for (const dir of ['bin', 'lib', 'share/sub']) fs.mkdirSync(path.join(source, dir), { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(source, 'bin', 'tool'), '#!/bin/sh\necho ok\n', { mode: 0o700 });
  fs.writeFileSync(path.join(source, 'lib', 'libx.so.1'), 'library', { mode: 0o600 });
  fs.symlinkSync('libx.so.1', path.join(source, 'lib', 'libx.so'));
  for (let i = 0; i < files; i++) fs.writeFileSync(path.join(source, 'share', 'sub', `data-${i}`), 'x'.repeat(4096), { mode: 0o600 });
  fs.chmodSync(source, 0o700);
  return source;
}

const modeOf = (file: string): number => fs.lstatSync(file).mode & 0o777;

describe('stageTree', () => {
  test('the copy opens directories and executables to everyone (0755), other files for reading (0644), and keeps symlinks', () => {
    const root = scratch();
    const staged = stageTree(privateTree(), root, 'label');
    expect(path.dirname(staged)).toBe(root);
    expect(path.basename(staged)).toMatch(/^label-[0-9a-f]{12}$/);
    for (const dir of ['', 'bin', 'lib', 'share', 'share/sub']) expect(modeOf(path.join(staged, dir)), dir).toBe(0o755);
    expect(modeOf(path.join(staged, 'bin', 'tool'))).toBe(0o755);
    expect(modeOf(path.join(staged, 'lib', 'libx.so.1'))).toBe(0o644);
    expect(modeOf(path.join(staged, 'share', 'sub', 'data-0'))).toBe(0o644);
    expect(fs.readlinkSync(path.join(staged, 'lib', 'libx.so'))).toBe('libx.so.1');
    expect(fs.readFileSync(path.join(staged, 'lib', 'libx.so'), 'utf8')).toBe('library');
    expect(spawnSync(path.join(staged, 'bin', 'tool'), { encoding: 'utf8' }).stdout).toBe('ok\n');
  });

  test('a second call reuses the copy; a changed tree gets a copy of its own', () => {
    const root = scratch();
    const source = privateTree();
    const first = stageTree(source, root, 'label');
    const inode = fs.statSync(path.join(first, 'bin', 'tool')).ino;
    expect(stageTree(source, root, 'label')).toBe(first);
    expect(fs.statSync(path.join(first, 'bin', 'tool')).ino).toBe(inode);
    fs.appendFileSync(path.join(source, 'lib', 'libx.so.1'), ' v2');
    const second = stageTree(source, root, 'label');
    expect(second).not.toBe(first);
    expect(fs.readdirSync(root).sort()).toEqual([path.basename(first), path.basename(second)].sort());
  });

  test('a copy that others can write to is refused, not run', () => {
    const root = scratch();
    const source = privateTree();
    const staged = stageTree(source, root, 'label');
    fs.chmodSync(staged, 0o777);
    expect(() => stageTree(source, root, 'label')).toThrow(ServerEnvironmentError);
    expect(() => stageTree(source, root, 'label')).toThrow(/remove it and retry/);
  });

  test('processes racing to stage the same tree all get one complete copy, and no temp copy is left', async () => {
    const root = scratch();
    const source = privateTree(300);
    const stage = (): Promise<string> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', STAGE_FIXTURE, source, root], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.once('error', reject);
        child.once('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`stage-tree exited with ${code}`))));
      });
    const staged = await Promise.all([stage(), stage(), stage(), stage()]);
    expect(new Set(staged).size).toBe(1);
    expect(fs.readdirSync(root)).toEqual([path.basename(staged[0]!)]);
    expect(fs.readdirSync(path.join(staged[0]!, 'share', 'sub'))).toHaveLength(300);
  });
});

describe('serverBinaries', () => {
  test("the server's OS user can run the pg_ctl it returns", async () => {
    const { pgCtl, binDir } = await serverBinaries();
    expect(path.dirname(pgCtl)).toBe(binDir);
    const user = serverUser();
    const run = spawnSync(pgCtl, ['--version'], { ...(user ?? {}), cwd: '/', encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    expect(run.stdout).toMatch(/^pg_ctl \(PostgreSQL\) \d+/);
  });
});
