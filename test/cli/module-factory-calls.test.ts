// A user's store is opened once per run: the probe that checks the module up front is the store of
// the first run, not an extra one (a store backed by a database pays its setup once per run).

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { MEMORY, writeMemoryModule } from './memory-module.ts';
import { runCliAsync } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-module-factory-');

/** The memory store as a module that writes one line to `log` each time its factory is called. */
function countingModule(dir: string, log: string): string {
  const file = writeMemoryModule(dir, {
    file: 'counting.mts',
    imports: "import { appendFileSync } from 'node:fs';",
    beforeOpen: `appendFileSync(${JSON.stringify(log)}, 'opened\\n');`,
    store: `{ name: 'counting', execute: (command) => base.execute(command), close: () => base.close() }`,
  });
  writeFileSync(log, '');
  return file;
}

const opened = (log: string): number => readFileSync(log, 'utf8').split('\n').filter((line) => line === 'opened').length;

describe('the factory of a user module store', () => {
  test('is called once for a run and once per run of a sweep, and the runs judge as before', async () => {
    const dir = scratch();
    const log = path.join(dir, 'factory.log');
    const adapter = countingModule(dir, log);
    const run = await runCliAsync(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', adapter, '--json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(opened(log)).toBe(1);
    const memory = await runCliAsync(['run', '--scenario', 'stale-holder', '--seed', '1', '--json'], { cwd: dir });
    // The reused probe reads the run's clock: the run is the memory store's, trace hash and all.
    expect((JSON.parse(run.stdout) as { traceHash: string }).traceHash).toBe((JSON.parse(memory.stdout) as { traceHash: string }).traceHash);
    const sweep = await runCliAsync(['sweep', '--scenario', 'stale-holder', '--seeds', '1..3', '--adapter', adapter, '--json'], { cwd: dir });
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(opened(log)).toBe(1 + 3);
  }, 120_000);
});

describe('closing a store no run used', () => {
  test('a close() that fails is a one-line warning, not an error that could replace the one a command ends with', async () => {
    const dir = scratch();
    const file = writeMemoryModule(dir, {
      file: 'bad-close.mts',
      store: `{ name: 'bad-close', execute: (command) => base.execute(command), close: async () => { throw new Error('socket already gone'); } }`,
    });
    const { resolveAdapter } = await import('../../backends/index.ts');
    const adapter = await resolveAdapter(file);
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      await expect(adapter.close()).resolves.toBeUndefined();
    } finally {
      process.stderr.write = write;
    }
    expect(written.join('')).toMatch(/^testbed: warning: adapter .*bad-close\.mts: close\(\) of a store no run used failed: socket already gone\n$/);
  });
});

describe('a store module written as .ts', () => {
  test('loads in a directory that is no ES module package (CommonJS to Node), as most projects are', async () => {
    const dir = scratch();
    const file = path.join(dir, 'plain.ts');
    writeFileSync(file, `import createMemoryStore from ${JSON.stringify(MEMORY)};\nexport default async (options: { time: unknown }) => createMemoryStore(options as never);\n`);
    const run = await runCliAsync(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', file, '--json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
  }, 60_000);
});

describe('the calls a module store gets', () => {
  test('each names the controller incarnation that makes it, as the port says', async () => {
    const dir = scratch();
    const log = path.join(dir, 'calls.log');
    const file = writeMemoryModule(dir, {
      file: 'naming.mts',
      imports: "import { appendFileSync } from 'node:fs';",
      store: `{ name: 'naming', execute: (command, call) => { appendFileSync(${JSON.stringify(log)}, (call ? call.process + ' ' + call.node : '-') + ' ' + (command.holder ?? '') + '\\n'); return base.execute(command); }, close: () => base.close() }`,
    });
    writeFileSync(log, '');
    const run = await runCliAsync(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', file, '--json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const named = lines.filter((line) => /^c\d+#\d+ c\d+ /.test(line));
    expect(named.length).toBeGreaterThan(10);
    // A controller's own calls carry its own incarnation as the holder.
    expect(named.filter((line) => line.split(' ')[2] !== '').every((line) => line.split(' ')[2] === line.split(' ')[0])).toBe(true);
  }, 60_000);
});
