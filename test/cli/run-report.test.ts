// `testbed run --report [file]`: the page is written (by default under out/runs/), named in the --json document as reportFile, for a user's store module too (its run unshrunk, and the page says why); a path that cannot be written is bad input: one line and exit 2, before anything runs and with nothing left behind.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCliAsync } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-run-report-');
const FAILING = ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', 'mutant:advisory-lock-only'];
const MUTANT = path.resolve(import.meta.dirname, '../../mutants/store/advisory-lock-only.ts');

describe('run --report', () => {
  test('writes the page to its default path and says where; the printed counterexample marks the failing step and shows store times', async () => {
    const dir = scratch();
    const run = await runCliAsync([...FAILING, '--report'], { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    const file = 'out/runs/stale-holder-seed-1-mutant_advisory-lock-only.html';
    expect(run.stdout).toContain(`report written to ${file}\n`);
    const html = readFileSync(path.join(dir, file), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html.match(/data-failing="one-owner-per-epoch"/g)).toHaveLength(1);
    const counterexample = run.stdout.slice(run.stdout.indexOf('counterexample: '));
    expect(counterexample.split('\n').filter((line) => line.includes('◀ failing step: one-owner-per-epoch'))).toHaveLength(1);
    expect(counterexample).toMatch(/^ *1 {2}t= *\d+ms {2}store +\d+ms {2}\S+ +Acquire /m);
    expect(readdirSync(path.join(dir, 'out/runs'))).toEqual([path.basename(file)]);
  }, 120_000);

  test('with --json, writes the page and names it in reportFile', async () => {
    const dir = scratch();
    const run = await runCliAsync([...FAILING, '--report', 'pages/failing.html', '--json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    const json = JSON.parse(run.stdout) as { reportFile: string; failureFile: string; shrunk: boolean };
    expect(json).toMatchObject({ reportFile: 'pages/failing.html', shrunk: true });
    expect(readFileSync(path.join(dir, json.reportFile), 'utf8')).toContain('The shrunk counterexample: ');
  }, 120_000);

  test('writes the page of a user’s store module, shown as it ran and saying why it was not shrunk', async () => {
    const dir = scratch();
    const module = path.join(dir, 'my-store.mts');
    // The mutant's bug in a store of the user's own, which does not say it is deterministic.
    writeFileSync(
      module,
      `import { advisoryLockOnly } from ${JSON.stringify(MUTANT)};
const open = advisoryLockOnly.wraps();
export default async (options) => {
  const store = await open(options);
  return { name: 'my-store', execute: (command, call) => store.execute(command, call), close: () => store.close() };
};
`,
    );
    const run = await runCliAsync(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', module, '--report', 'mine.html', '--json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ reportFile: 'mine.html', shrunk: false });
    const html = readFileSync(path.join(dir, 'mine.html'), 'utf8');
    expect(html).toContain('data-shrunk="false">Not shrunk: the store ');
    expect(html).toContain('does not say it answers alike on every run');
    expect(html.match(/data-failing="/g)).toHaveLength(1);
  }, 120_000);

  test('to a path that cannot be written: one line, exit 2, nothing run and nothing written', async () => {
    const dir = scratch();
    writeFileSync(path.join(dir, 'a-file'), '');
    for (const bad of ['', 'newdir/']) {
      const refused = await runCliAsync([...FAILING, '--report', bad], { cwd: dir });
      expect(refused.code, bad).toBe(2);
      expect(refused.stderr.trimEnd().split('\n'), bad).toEqual([expect.stringMatching(/^testbed: --report ".*": name the page's file/)]);
    }
    const run = await runCliAsync([...FAILING, '--report', 'a-file/page.html'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^testbed: cannot write the report a-file\/page\.html: .*a-file.* not a directory$/)]);
    expect(readdirSync(dir)).toEqual(['a-file']);
    expect(existsSync(path.join(dir, 'out'))).toBe(false);
  }, 120_000);
});
