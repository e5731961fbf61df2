// The shard file of `testbed race --shard i/n` (race-shard-<i>-of-<n>.json): what the whole run
// was (adapter, kinds, depth, bounds: every shard of one run names the same), which shard this
// is, its summary, and its smallest failure with the case index that orders ties, so that
// `testbed merge` gives the verdict and the smallest failure the unsharded run would give.

import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../atomic-write.ts';
import { raceFileSchema, type RaceFile } from './race-file.ts';

export const RACE_SHARD_PATTERN = /^race-shard-\d+-of-\d+\.json$/;

const caseName = z.object({ kinds: z.array(z.string()), state: z.string() }).passthrough();

export const raceSummarySchema = z
  .object({
    adapter: z.string(),
    depth: z.number().int(),
    kinds: z.array(z.string()),
    insideFunctions: z.boolean(),
    functionSamples: z.number().int().nonnegative(),
    strategy: z.enum(['exhaustive', 'random', 'pct']),
    stopAtFirst: z.boolean().optional(),
    /** Present for a store whose fences are not integers: what no schedule could judge (campaign/race/judge.ts). */
    fencing: z.enum(['opaque', 'none']).optional(),
    notJudged: z.array(z.string()).optional(),
    seed: z.number().int().optional(),
    pctDepth: z.number().int().optional(),
    preemptionBound: z.number().int().nullable(),
    maxSchedules: z.number().int(),
    cases: z.number().int().nonnegative(),
    schedules: z.number().int().nonnegative(),
    insideSchedules: z.number().int().nonnegative(),
    prunedBranches: z.number().int().nonnegative(),
    branchesBeyondBound: z.number().int().nonnegative(),
    exhausted: z.boolean(),
    largestCases: z.array(caseName.extend({ schedules: z.number().int() })),
    bounded: z.array(caseName),
    undecided: z.array(caseName.extend({ why: z.string() })),
    failing: z.number().int().nonnegative(),
    failures: z.array(caseName.extend({ rule: z.string().optional(), message: z.string().optional(), schedule: z.array(z.string()) })),
  })
  .passthrough();

export type RaceSummary = z.infer<typeof raceSummarySchema>;

export const raceShardSchema = z
  .object({
    version: z.literal(1),
    type: z.literal('race-shard'),
    testbed: z.string(),
    shard: z.object({ index: z.number().int().positive(), count: z.number().int().positive() }),
    summary: raceSummarySchema,
    /** The shard's smallest failure: its size (runs of one session, then steps) and case index order ties. */
    failure: z.object({ size: z.number().int(), caseIndex: z.number().int(), file: raceFileSchema }).nullable(),
  })
  .strict();

export type RaceShard = z.infer<typeof raceShardSchema>;

export async function writeRaceShard(path: string, shard: RaceShard): Promise<void> {
  raceShardSchema.parse(shard);
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, `${JSON.stringify(shard, null, 2)}\n`);
}

export class RaceShardSetError extends Error {
  override readonly name = 'RaceShardSetError';
}

/** The fields every shard of one run shares. */
function workOf(summary: RaceSummary): string {
  const { adapter, depth, kinds, insideFunctions, functionSamples, strategy, seed, pctDepth, preemptionBound, maxSchedules } = summary;
  return JSON.stringify({ adapter, depth, kinds, insideFunctions, functionSamples, strategy, seed, pctDepth, preemptionBound, maxSchedules });
}

/** The shards 1..n of one run, merged: the summary of the whole and its smallest failure. */
export function mergeRaceShards(shards: ReadonlyArray<RaceShard>, version: string): { summary: RaceSummary; failure: RaceFile | null } {
  const count = shards[0]!.shard.count;
  const indexes = shards.map((s) => s.shard.index).sort((a, b) => a - b);
  if (shards.some((s) => s.shard.count !== count) || indexes.join(',') !== Array.from({ length: count }, (_, i) => i + 1).join(',')) {
    throw new RaceShardSetError(`the files are not shards 1..${count} of one race run, each once (got ${shards.map((s) => `${s.shard.index}/${s.shard.count}`).join(', ')})`);
  }
  const work = workOf(shards[0]!.summary);
  const other = shards.find((s) => workOf(s.summary) !== work || s.testbed !== version);
  if (other !== undefined) throw new RaceShardSetError(`shard ${other.shard.index}/${count} is of another race run (adapter, kinds, depth, strategy, bounds or testbed version differ)`);
  const all = shards.map((s) => s.summary);
  const sum = (f: (s: RaceSummary) => number) => all.reduce((n, s) => n + f(s), 0);
  const largest = all.flatMap((s) => s.largestCases).sort((a, b) => b.schedules - a.schedules).slice(0, 10);
  const summary: RaceSummary = {
    ...shards[0]!.summary,
    cases: sum((s) => s.cases),
    schedules: sum((s) => s.schedules),
    insideSchedules: sum((s) => s.insideSchedules),
    prunedBranches: sum((s) => s.prunedBranches),
    branchesBeyondBound: sum((s) => s.branchesBeyondBound),
    exhausted: all.every((s) => s.exhausted),
    largestCases: largest,
    bounded: all.flatMap((s) => s.bounded).slice(0, 100),
    undecided: all.flatMap((s) => s.undecided).slice(0, 100),
    failing: sum((s) => s.failing),
    failures: all.flatMap((s) => s.failures).slice(0, 100),
  };
  delete (summary as { shard?: unknown }).shard;
  const failures = shards.flatMap((s) => (s.failure === null ? [] : [s.failure]));
  failures.sort((a, b) => a.size - b.size || a.caseIndex - b.caseIndex);
  return { summary, failure: failures[0]?.file ?? null };
}
