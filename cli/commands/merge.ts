// `testbed merge <shard files or dirs…> --out <dir>`: the shards of one `gates` (or `mutants`) run
// become one results.json and the same reports, table and exit code as the unsharded run; the
// shards of one `race` run, its summary, smallest failure and exit code (race-merge.ts). A set
// that is not exactly shards 1..n of one run by this version is refused in one line (exit 2).

import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import pc from 'picocolors';
import { GateInputError, saveResults, writeReports, type GateRunInput, type MutantEvidence } from '../../reports/index.ts';
import { loadShardFile, SHARD_FILE_PATTERN } from '../../reports/shard-file.ts';
import { checkShardSet, mergeShards, ShardSetError, type LoadedShard } from '../../reports/shard-merge.ts';
import { EXIT, UsageError } from '../errors.ts';
import { printJson } from '../format.ts';
import { finishGateRun } from '../gate-output.ts';
import { checkOutDir } from '../out-dir.ts';
import { packageVersion } from '../version.ts';
import { mergeRace, raceShardFiles } from './race-merge.ts';
import type { MergeOptions } from './output-flags.ts';

const codeOf = (error: unknown) => (error as { code?: string }).code ?? String(error);

/** The shard files named: a file as it is, a directory as the shard files in it. */
async function shardFiles(given: ReadonlyArray<string>): Promise<string[]> {
  const files: string[] = [];
  for (const entry of given) {
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(entry)).isDirectory();
    } catch (error) {
      throw new UsageError(`${entry}: cannot read it (${codeOf(error)})`);
    }
    if (!isDirectory) {
      files.push(entry);
      continue;
    }
    const inside = (await readdir(entry)).filter((name) => SHARD_FILE_PATTERN.test(name)).sort();
    if (inside.length === 0) throw new UsageError(`${entry}: holds no shard file (shard-<i>-of-<n>.json, written by gates or mutants with --shard)`);
    files.push(...inside.map((name) => path.join(entry, name)));
  }
  return files;
}

async function load(file: string): Promise<LoadedShard> {
  try {
    return { path: file, file: await loadShardFile(file) };
  } catch (error) {
    if (error instanceof GateInputError) throw new UsageError(`${file}: not a shard file: ${error.problems.slice(0, 3).join('; ')}`);
    if ((error as { code?: unknown }).code !== undefined) throw new UsageError(`${file}: cannot read it (${codeOf(error)})`);
    throw error;
  }
}

export async function mergeCommand(given: ReadonlyArray<string>, options: MergeOptions): Promise<void> {
  const race = await raceShardFiles(given);
  if (race !== null) return mergeRace(race, options);
  const shards: LoadedShard[] = [];
  for (const file of await shardFiles(given)) shards.push(await load(file));
  try {
    checkShardSet(shards, packageVersion());
  } catch (error) {
    if (error instanceof ShardSetError) throw new UsageError(error.message);
    throw error;
  }
  await checkOutDir(options.out);
  const started = performance.now();
  const input = mergeShards(shards);
  const first = shards[0]!.file;
  const line = `merged ${shards.length} shards of \`${first.command}\` in ${Math.round(performance.now() - started)} ms`;
  if (first.command === 'mutants') return finishMutants(input, options, line);
  await finishGateRun(input, options, [line]);
}

/**
 * The end of a merged `mutants` run, as the unsharded command ends: the mutant table, and exit 1
 * unless every mutant was caught by the simulator or the command-level check. results.json and
 * the reports are written too (their gate rows that rest on scenarios are untested).
 */
async function finishMutants(input: GateRunInput, options: { readonly out: string; readonly json?: boolean }, line: string): Promise<void> {
  await mkdir(options.out, { recursive: true });
  await saveResults(input, path.join(options.out, 'results.json'));
  await writeReports(input, options.out);
  const caughtBy = (m: MutantEvidence) => [...(m.check?.caught === true ? ['check'] : []), ...(m.caught ? ['simulator'] : [])];
  const escaped = input.mutants.filter((m) => caughtBy(m).length === 0);
  if (options.json) {
    printJson({ mutants: input.mutants.map((m) => ({ ...m, caughtBy: caughtBy(m) })) });
  } else {
    const width = Math.max(...input.mutants.map((m) => m.name.length));
    for (const m of input.mutants) {
      const how = m.caught
        ? `first caught by ${m.firstFailingScenario} seed ${m.firstFailingSeed}`
        : m.checkOnly === undefined
          ? `not caught by the simulator in ${m.seedsTried} seeds`
          : `not hunted (no workload reaches it: ${m.checkOnly})`;
      process.stdout.write(`${caughtBy(m).length > 0 ? pc.green('caught ') : pc.red('MISSED ')}${m.name.padEnd(width)}  ${how}${m.check === undefined ? '' : `; check: ${m.check.caught ? 'caught' : 'not caught'}`}\n`);
    }
    process.stdout.write(`${input.mutants.length - escaped.length}/${input.mutants.length} mutants caught\n${line}\nresults: ${path.join(options.out, 'results.json')}\n`);
  }
  process.exitCode = escaped.length === 0 ? EXIT.ok : EXIT.violation;
}
