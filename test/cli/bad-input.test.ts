// Every bad input gives a one-line error and exit code 2, and writes nothing (docs/ARCHITECTURE.md "The CLI contract").

import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-cli-')();
const file = (name: string, text: string) => {
  const full = path.join(scratch, name);
  writeFileSync(full, text);
  return full;
};

const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>, RegExp]> = [
  ['unknown scenario', ['run', '--scenario', 'no-such-scenario', '--seed', '1'], /unknown scenario 'no-such-scenario'/],
  ['seed that is not a number', ['run', '--scenario', 'stale-holder', '--seed', 'abc'], /bad seed "abc"/],
  ['negative seed', ['run', '--scenario', 'stale-holder', '--seed', '-4'], /bad seed|unknown option/],
  ['reversed seed range', ['sweep', '--scenario', 'stale-holder', '--seeds', '9..3'], /9 is greater than 3/],
  ['malformed seed range', ['sweep', '--scenario', 'stale-holder', '--seeds', '1-5'], /bad seed range "1-5"/],
  ['bad shard', ['sweep', '--scenario', 'stale-holder', '--seeds', '1..5', '--shard', '4/3'], /bad shard "4\/3"/],
  ['bad worker count', ['sweep', '--scenario', 'stale-holder', '--seeds', '1..5', '--workers', '0'], /--workers must be 'auto' or an integer/],
  ['worker threads for a store they cannot rebuild', ['sweep', '--scenario', 'stale-holder', '--seeds', '1..5', '--workers', '2', '--adapter', 'postgres'], /--workers above 1 needs an in-process adapter/],
  ['unknown adapter', ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', 'redis'], /unknown adapter 'redis'/],
  ['unknown mutant', ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', 'mutant:nope'], /unknown mutant 'nope'/],
  ['real faults on the memory store', ['run', '--scenario', 'db-failover', '--seed', '1', '--faults', 'real'], /--faults real needs --adapter postgres/],
  ['missing required option', ['run', '--scenario', 'stale-holder'], /required option '--seed <n>'/],
  ['unknown command', ['explode'], /unknown command 'explode'/],
  ['missing scenario file', ['run', '--scenario', path.join(scratch, 'missing.json'), '--seed', '1'], /cannot read scenario file/],
  ['scenario file that is not JSON', ['run', '--scenario', file('broken.json', '{ "name": '), '--seed', '1'], /is not JSON/],
  ['scenario file that fails validation', ['run', '--scenario', file('invalid.json', JSON.stringify({ name: 'Bad Name', title: '' })), '--seed', '1'], /invalid scenario/],
  ['adapter module that does not exist', ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', './nowhere/store.ts'], /adapter module not found/],
  ['adapter module without a factory', ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', file('no-factory.mjs', 'export const x = 1;\n')], /no default export that is a store factory/],
  ['adapter module that returns no store', ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', file('not-a-store.mjs', 'export default async () => ({ name: "x" });\n')], /does not implement the store port: missing execute\(\)/],
  ['replay of a malformed failure file', ['replay', file('failure.json', '{"version": 1}')], /not a failure file/],
  ['report from a malformed results file', ['report', file('results.json', '{"scenarios": 3}')], /not valid results/],
  ['mutants with a bad seed budget', ['mutants', '--seeds', 'many'], /bad --seeds "many"/],
  ['check with a bad run count', ['check', '--runs', '0'], /bad --runs "0"/],
  ['check with a path but no seed', ['check', '--path', '1:2'], /--path replays a counterexample and needs the --seed/],
  ['check with a malformed path', ['check', '--seed', '1', '--path', '1;2'], /bad path "1;2"/],
  ['check with a seed beyond 31 bits', ['check', '--seed', '4000000000'], /the check's seed is at most/],
];

describe('bad input exits 2 with a one-line message', () => {
  for (const [name, args, message] of cases) {
    test(name, () => {
      const result = runCli(args, { cwd: scratch });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stdout).toBe('');
      // Nothing half-written: the working directory holds only the inputs this test created.
      expect(readdirSync(scratch).filter((f) => !/\.(json|mjs)$/.test(f))).toEqual([]);
    });
  }
});
