// `replay` runs only code named on its own command line (docs/ARCHITECTURE.md "The CLI contract"):
// a failure file whose adapter is an `exec:` command or a store module exits 2 saying what it
// would run, and runs nothing, unless the adapter is named again with --adapter or the user
// passes --trust-file-adapter; a file of a built-in store replays as before.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-replay-trust-');

/** A real failure file (a memory mutant's), its adapter then rewritten to `adapter` as a file from elsewhere could name it. */
function failureFileNaming(cwd: string, adapter: string): string {
  const run = runCli(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', 'mutant:advisory-lock-only', '--no-shrink', '--json'], { cwd });
  expect(run.code, run.stderr).toBe(1);
  const where = path.resolve(cwd, (JSON.parse(run.stdout) as { failureFile: string }).failureFile);
  const file = JSON.parse(readFileSync(where, 'utf8')) as Record<string, unknown>;
  delete file.mutant;
  file.adapter = adapter;
  file.replay = `npx testbed run --scenario stale-holder --seed 1 --adapter '${adapter.replaceAll("'", `'\\''`)}'`;
  writeFileSync(where, JSON.stringify(file));
  return where;
}

describe('replay runs only code named on its command line', () => {
  test('a file naming exec:touch <marker> exits 2, says what it would run, and creates no marker', () => {
    const cwd = scratch();
    const marker = path.join(cwd, 'marker');
    const file = failureFileNaming(cwd, `exec:touch ${marker}`);
    const replay = runCli(['replay', file], { cwd });
    expect(replay.code).toBe(2);
    expect(replay.stderr.trim().split('\n')).toHaveLength(1);
    expect(replay.stderr).toContain(`runs the command touch ${marker}`);
    expect(replay.stderr).toContain('--adapter');
    expect(existsSync(marker)).toBe(false);
  });

  test('a file naming a store module exits 2 unless the module is named again', () => {
    const cwd = scratch();
    const marker = path.join(cwd, 'loaded');
    const module = path.join(cwd, 'store.mjs');
    writeFileSync(module, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default () => { throw new Error('no store here'); };\n`);
    const file = failureFileNaming(cwd, module);
    const refused = runCli(['replay', file], { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`loads the store module ${module}`);
    expect(existsSync(marker)).toBe(false);
    const other = runCli(['replay', file, '--adapter', 'memory'], { cwd });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`recorded on adapter ${module}, not memory`);
    expect(existsSync(marker)).toBe(false);
    // Named again, the module runs (and, being no store, cannot replay: an environment failure).
    const named = runCli(['replay', file, '--adapter', module], { cwd });
    expect(named.code).not.toBe(2);
    expect(existsSync(marker)).toBe(true);
  });
});
