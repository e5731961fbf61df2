// Parsing of seeds, seed ranges and shards given on the command line.

import { shardSeeds, WHOLE, type Shard } from '../campaign/shard-plan.ts';
import { UsageError } from './errors.ts';

export type { Shard };

const SEED_MAX = 2 ** 32 - 1;
const SEEDS_PER_RANGE_MAX = 10_000_000;

export function parseSeed(text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`bad seed "${text}": expected a non-negative integer`);
  const seed = Number(text);
  if (!Number.isSafeInteger(seed) || seed > SEED_MAX) throw new UsageError(`bad seed "${text}": must be at most ${SEED_MAX}`);
  return seed;
}

export interface SeedRange {
  readonly from: number;
  readonly to: number;
}

export function parseSeedRange(text: string): SeedRange {
  const match = /^(\d+)\.\.(\d+)$/.exec(text);
  if (!match) throw new UsageError(`bad seed range "${text}": expected <from>..<to>, for example 1..500`);
  const from = parseSeed(match[1]!);
  const to = parseSeed(match[2]!);
  if (from > to) throw new UsageError(`bad seed range "${text}": ${from} is greater than ${to}`);
  if (to - from >= SEEDS_PER_RANGE_MAX) throw new UsageError(`bad seed range "${text}": at most ${SEEDS_PER_RANGE_MAX} seeds per sweep`);
  return { from, to };
}

/** The shard a command runs: `--shard i/n`, else the environment (see `shardFrom`). */
export function parseShard(text: string, from = 'shard'): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) throw new UsageError(`bad ${from} "${text}": expected <i>/<n>, for example 2/4`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || index < 1 || index > count) throw new UsageError(`bad ${from} "${text}": need 1 <= i <= n`);
  if (count > SHARDS_MAX) throw new UsageError(`bad ${from} "${text}": at most ${SHARDS_MAX} shards`);
  return { index, count };
}

const SHARDS_MAX = 100_000;

/**
 * The shard to run, from the first of: `--shard i/n`; `TESTBED_SHARD=i/n`; `TESTBED_SHARDS=n`
 * with Kubernetes' `JOB_COMPLETION_INDEX` (0-based, set in each pod of an Indexed Job). Undefined
 * when none is given: the whole run.
 */
export function shardFrom(option: string | undefined, env: NodeJS.ProcessEnv = process.env): Shard | undefined {
  if (option !== undefined) return parseShard(option);
  if (env.TESTBED_SHARD !== undefined && env.TESTBED_SHARD !== '') return parseShard(env.TESTBED_SHARD, 'TESTBED_SHARD');
  if (env.TESTBED_SHARDS === undefined || env.TESTBED_SHARDS === '') return undefined;
  const index = env.JOB_COMPLETION_INDEX;
  if (index === undefined || !/^\d+$/.test(index)) {
    throw new UsageError(`TESTBED_SHARDS=${env.TESTBED_SHARDS} needs JOB_COMPLETION_INDEX (0-based, as a Kubernetes Indexed Job sets it)${index === undefined ? '' : `, got "${index}"`}`);
  }
  return parseShard(`${Number(index) + 1}/${env.TESTBED_SHARDS}`, 'TESTBED_SHARDS with JOB_COMPLETION_INDEX');
}

/** The seeds of a range that belong to one shard: every n-th seed, starting at the i-th. */
export function seedsOf(range: SeedRange, shard?: Shard): number[] {
  return shardSeeds(range.from, range.to, shard ?? WHOLE);
}
