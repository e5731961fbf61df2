// A shard results file: what one shard of `gates` or `mutants` collected (the same GateRunInput a
// whole run saves as results.json, holding only the shard's share), with what the whole run was
// and which shard this is, so `testbed merge` can check a set of shards before it combines them.

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { GateWork, Shard } from '../campaign/shard-plan.ts';
import { writeFileAtomic } from '../campaign/atomic-write.ts';
import type { GateRunInput } from '../campaign/gates/evidence.ts';
import { GateInputError, validateGateInput } from './results-file.ts';

export const SHARD_FORMAT = 'testbed-shard/1';

export interface ShardFile {
  readonly format: typeof SHARD_FORMAT;
  /** The testbed version that ran the shard: shards of different versions are never merged. */
  readonly testbed: string;
  readonly command: 'gates' | 'mutants';
  /** `TESTBED_RUN_ID` of the shard's environment, when set: shards of one run share it (a CI run id, a Job's uid). */
  readonly run?: string;
  readonly shard: Shard;
  readonly work: GateWork;
  readonly results: GateRunInput;
}

/** The name a shard's file has in its `--out` directory; `testbed merge` finds files by it. */
export function shardFileName(shard: Shard): string {
  return `shard-${shard.index}-of-${shard.count}.json`;
}

export const SHARD_FILE_PATTERN = /^shard-\d+-of-\d+\.json$/;

const names = z.array(z.string().min(1));
const count = z.number().int().nonnegative();

const header = z.object({
  format: z.literal(SHARD_FORMAT),
  testbed: z.string().min(1),
  command: z.enum(['gates', 'mutants']),
  run: z.string().min(1).optional(),
  shard: z
    .object({ index: z.number().int().min(1), count: z.number().int().min(1) })
    .refine((s) => s.index <= s.count, { message: 'index exceeds count', path: ['index'] }),
  work: z.object({
    seeds: count,
    pgSeeds: count,
    postgres: z.boolean(),
    scenarios: names,
    realFaultScenarios: names,
    mutants: names,
  }),
  results: z.unknown(),
});

/** Reads and validates a shard file; a file that is not one throws GateInputError naming each bad field. */
export async function loadShardFile(path: string): Promise<ShardFile> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    if (error instanceof SyntaxError) throw new GateInputError(path, [`not valid JSON (${error.message})`]);
    throw error;
  }
  const parsed = header.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.length === 0 ? '(root)' : issue.path.join('.')}: ${issue.message}`);
    throw new GateInputError(path, problems);
  }
  validateGateInput(parsed.data.results, `${path} (results)`);
  return parsed.data as ShardFile;
}

export async function saveShardFile(file: ShardFile, path: string): Promise<void> {
  validateGateInput(file.results);
  await writeFileAtomic(path, `${JSON.stringify(file)}\n`);
}
