// When a store, the machine or the user stops a command, it says what failed in one line, with no
// stack trace unless --verbose: a store whose factory throws or never answers, a store call that
// throws (a port-contract finding), a server that accepts connections and never answers, a
// failure file that cannot be written (the violation is still reported), and an interrupt (which
// names the failure files already written).

import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, runCliAsync } from './run-cli.ts';
import { spawn } from 'node:child_process';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-one-line-');
const ROOT = path.resolve(import.meta.dirname, '../..');

function module(dir: string, name: string, source: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, source);
  return file;
}

const oneLine = (stderr: string) => stderr.trimEnd().split('\n');
const noStack = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m);

describe('a store that fails is named in one line (exit 3)', () => {
  const dir = scratch();
  const run = (adapter: string, extra: ReadonlyArray<string> = []) => runCli(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', adapter, ...extra], { cwd: dir });

  test('a factory that throws', () => {
    const result = run(module(dir, 'throws.mjs', "export default async () => { throw new Error('boom in factory'); };\n"));
    expect(result.code, result.stderr).toBe(3);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(/^testbed: could not decide: the store factory of .*throws\.mjs failed: boom in factory$/)]);
  });

  test('a factory that never resolves (it used to exit 13 without a word)', () => {
    const result = run(module(dir, 'hangs.mjs', 'export default () => new Promise(() => {});\n'));
    expect(result.code, result.stderr).toBe(3);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(/^testbed: could not decide: the store factory of .*hangs\.mjs never finished/)]);
  });

  const throwing = () => module(dir, 'execute-throws.mjs', "export default async () => ({ name: 'x', execute: async () => { throw new Error('execute exploded'); }, close: async () => {} });\n");

  // A store call that throws breaks the port's contract (docs/ARCHITECTURE.md "The store port"): the
  // caller sees an unknown outcome and the run reports a port-contract finding per call (exit 1).
  test('a store whose execute throws: a port-contract finding naming command, process and store time', () => {
    const result = run(throwing());
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^  port-contract: Acquire by c\d+#\d+ at store time \d+: the store threw Error: store .*execute-throws\.mjs threw on Acquire: execute exploded$/m);
    noStack(result.stdout);
    noStack(result.stderr);
  });

  test('--verbose adds the stack trace, with its cause', () => {
    const result = run(module(dir, 'throws-verbose.mjs', "export default async () => { throw new Error('boom in factory'); };\n"), ['--verbose']);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/^\s+at /m);
    expect(result.stderr).toMatch(/caused by: Error: boom in factory/);
  });
});

describe('a server that accepts connections and never answers', () => {
  let silent: Server;
  let port = 0;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    silent = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    port = (silent.address() as { port: number }).port;
  });
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  test('DATABASE_URL pointing at it is given up after the connect timeout (it used to hang)', async () => {
    const started = performance.now();
    const result = await runCliAsync(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', 'postgres'], {
      cwd: scratch(),
      env: { DATABASE_URL: `postgres://testbed@127.0.0.1:${port}/testbed` },
      timeoutMs: 30_000,
    });
    expect(result.code, result.stderr).toBe(3);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(/^testbed: could not decide: cannot reach the server at DATABASE_URL: no answer within 5 s/)]);
    expect(performance.now() - started).toBeLessThan(25_000);
  }, 40_000);
});

describe('a failure file that cannot be written', () => {
  // `out` is a file here, so out/failures/ cannot be made.
  const blocked = () => {
    const dir = scratch();
    writeFileSync(path.join(dir, 'out'), 'not a directory');
    return dir;
  };
  const args = ['run', '--scenario', 'db-failover-unmitigated', '--seed', '1', '--no-shrink'];

  test('still reports the violation and its replay line, exit 1, and says why there is no file', () => {
    const result = runCli(args, { cwd: blocked() });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/VIOLATION/);
    expect(result.stdout).toMatch(/^replay: npx testbed run --scenario db-failover-unmitigated --seed 1 --adapter memory$/m);
    const said = oneLine(result.stderr).filter((line) => line.startsWith('testbed:'));
    expect(said).toEqual([expect.stringMatching(/^testbed: cannot write the failure file out\/failures\/db-failover-unmitigated-1-memory\.json: .*; the violation stands/)]);
    noStack(result.stderr);
  });

  test('under --json, still prints the document (it used to print nothing)', () => {
    const result = runCli([...args, '--json'], { cwd: blocked() });
    expect(result.code, result.stderr).toBe(1);
    const document = JSON.parse(result.stdout) as { valid: unknown; failureFile: unknown; failureFileError: string; replay: string };
    expect(document.valid).toBe(false);
    expect(document.failureFile).toBeNull();
    expect(document.failureFileError).toMatch(/cannot write the failure file/);
    expect(document.replay).toBe('npx testbed run --scenario db-failover-unmitigated --seed 1 --adapter memory');
  });
});

describe('an interrupt', () => {
  test('SIGINT exits 130 naming the failure file already written, with its replay line', async () => {
    const dir = scratch();
    const file = path.join(dir, 'out/failures/db-failover-unmitigated-1-memory.json');
    const child = spawn(process.execPath, [path.join(ROOT, 'cli/bin.mjs'), 'sweep', '--scenario', 'db-failover-unmitigated', '--seeds', '1..100000', '--workers', '1'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const deadline = performance.now() + 30_000;
    while (!existsSync(file) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(file)).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('testbed: interrupted by SIGINT; failure files written: out/failures/db-failover-unmitigated-1-memory.json');
    expect(stderr).toContain('replay: npx testbed replay out/failures/db-failover-unmitigated-1-memory.json');
    noStack(stderr);
  }, 60_000);
});
