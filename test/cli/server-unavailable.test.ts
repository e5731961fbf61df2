// A PostgreSQL server that cannot be reached or started is this machine's problem, not bad input:
// exit code 3 with one line that says what to do (docs/ARCHITECTURE.md "The CLI contract").

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-cli-env-');
const RUN = ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', 'postgres'];

function expectOneLineExit3(result: ReturnType<typeof runCli>, message: RegExp): void {
  expect(result.code, result.stderr).toBe(3);
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
}

describe('a PostgreSQL server this machine cannot give exits 3 with one line', () => {
  test('DATABASE_URL names a server that does not answer', () => {
    const result = runCli(RUN, { cwd: scratch(), env: { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/postgres' } });
    expectOneLineExit3(result, /^testbed: could not decide: cannot reach the server at DATABASE_URL: .*; check that it runs and accepts connections$/m);
  });

  // Only as root does the server run as another OS user (postgres), who cannot enter a private TMPDIR.
  test.runIf(process.getuid?.() === 0)('as root, the temp dir is one the postgres OS user cannot enter', () => {
    const privateTmp = path.join(scratch(), 'tmp');
    fs.mkdirSync(privateTmp, { mode: 0o700 });
    const result = runCli(RUN, { cwd: scratch(), env: { TMPDIR: privateTmp, DATABASE_URL: '' } });
    expectOneLineExit3(result, /^testbed: could not decide: cannot start an embedded PostgreSQL server: .*set TMPDIR to a directory every user can enter, such as \/tmp$/m);
  });
});
