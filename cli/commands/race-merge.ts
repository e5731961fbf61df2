// `testbed merge` of the shard files of one `testbed race --shard i/n` run (race-shard-<i>-of-<n>.json):
// the summary of the whole, the smallest failure of the whole written as race-failure.json, and
// the exit code of the unsharded run. A set that is not shards 1..n of one run is refused (exit 2).

import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import pc from 'picocolors';
import { writeRaceFile } from '../../campaign/race/race-file.ts';
import { mergeRaceShards, RACE_SHARD_PATTERN, raceShardSchema, RaceShardSetError, type RaceShard } from '../../campaign/race/race-shard.ts';
import { UsageError } from '../errors.ts';
import { printJson } from '../format.ts';
import { checkOutDir } from '../out-dir.ts';
import { packageVersion } from '../version.ts';
import { replayCommandLine } from '../replay-trust.ts';
import { exitOf, printSummary } from './race-output.ts';

/** The race shard files among `given` (files, or directories holding them); null when `given` names none. */
export async function raceShardFiles(given: ReadonlyArray<string>): Promise<string[] | null> {
  const files: string[] = [];
  for (const entry of given) {
    const info = await stat(entry).catch(() => null);
    if (info === null) return null;
    if (info.isDirectory()) files.push(...(await readdir(entry)).filter((name) => RACE_SHARD_PATTERN.test(name)).sort().map((name) => path.join(entry, name)));
    else if (RACE_SHARD_PATTERN.test(path.basename(entry))) files.push(entry);
    else return null;
  }
  return files.length === 0 ? null : files;
}

async function load(file: string): Promise<RaceShard> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file}: not a race shard file: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = raceShardSchema.safeParse(json);
  if (!parsed.success) throw new UsageError(`${file}: not a race shard file: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trimEnd());
  return parsed.data;
}

export async function mergeRace(files: ReadonlyArray<string>, options: { readonly out: string; readonly json?: boolean }): Promise<void> {
  const shards: RaceShard[] = [];
  for (const file of files) shards.push(await load(file));
  let merged;
  try {
    merged = mergeRaceShards(shards, packageVersion());
  } catch (error) {
    if (error instanceof RaceShardSetError) throw new UsageError(error.message);
    throw error;
  }
  await checkOutDir(options.out);
  const failurePath = path.join(options.out, 'race-failure.json');
  const failure = merged.failure === null ? null : { ...merged.failure, replay: replayCommandLine(failurePath, merged.failure.adapter) };
  if (failure !== null) await writeRaceFile(failurePath, failure);
  process.exitCode = exitOf(merged.summary);
  if (options.json) {
    printJson({ ...merged.summary, shards: shards.length, ...(failure === null ? {} : { failureFile: failurePath, replay: failure.replay, traceHash: failure.traceHash }) });
    return;
  }
  printSummary(merged.summary);
  if (failure !== null) {
    process.stdout.write(pc.red(`${merged.summary.failing} cases failed; the smallest: ${failure.kinds.join(' + ')} from '${failure.state}', ${failure.violation.rule}: ${failure.violation.message}\n`));
    process.stdout.write(`replay: ${failure.replay}\n`);
  }
  process.stdout.write(`merged ${shards.length} race shards\n`);
}
