// `testbed --version` prints the package's version.

import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { runCli } from './run-cli.ts';

test('testbed --version prints the version of package.json', () => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const result = runCli(['--version']);
  expect(result.code).toBe(0);
  expect(result.stdout).toBe(`${version}\n`);
});
