// `npm run mutation` (cli/mutation.ts) reads its options before StrykerJS starts: a bad one is one
// line and exit 2, with nothing written; `--dry-run` lists the files a run would mutate, for a
// shard or for the files chosen with `--file`. No mutant runs here.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ALL_PROTOCOL_FILES, filesOfShard } from '../../campaign/mutation/protocol-files.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const scratch = scratchDirs('testbed-mutation-options-');

function mutation(args: ReadonlyArray<string>): { readonly code: number | null; readonly stdout: string; readonly stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'cli/mutation.ts'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('bad options: one line, exit 2, nothing written', () => {
  const out = path.join(scratch(), 'mutation');
  for (const [args, message] of [
    [['--file', 'sim/no-such-file.ts'], /^mutation: --file sim\/no-such-file\.ts is not a protocol file/],
    [['--file', 'model/checkers/liveness.ts'], /is not a protocol file/],
    [['--file='], /^mutation: --file needs a path/],
    [['--file', 'sim/controller.ts', '--shard', '1/2'], /^mutation: --file chooses the files itself: it takes no --shard/],
    [['--merge', '--file', 'sim/controller.ts'], /^mutation: --merge reads the shards' files: it takes no --shard, --seeds or --file/],
  ] as const) {
    const result = mutation([...args, '--out', out]);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
    expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(existsSync(out), args.join(' ')).toBe(false);
  }
});

test('--dry-run lists the chosen files, or the shard\'s share of all of them', () => {
  const chosen = mutation(['--file', 'sim/lease-protocol.ts', '--file', path.join(ROOT, 'sim/controller.ts'), '--file', 'sim/controller.ts', '--dry-run']);
  expect(chosen.code, chosen.stderr).toBe(0);
  expect(chosen.stdout.trim().split('\n')).toEqual(['sim/controller.ts', 'sim/lease-protocol.ts']);
  const shard = mutation(['--shard', '2/3', '--dry-run']);
  expect(shard.code, shard.stderr).toBe(0);
  expect(shard.stdout.trim().split('\n')).toEqual([...filesOfShard(ROOT, { index: 2, count: 3 })]);
  expect(ALL_PROTOCOL_FILES).toEqual(expect.arrayContaining(shard.stdout.trim().split('\n')));
});
