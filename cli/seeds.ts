// Parsing of seeds, seed ranges and shards given on the command line.

import { UsageError } from './errors.ts';

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

export interface Shard {
  /** 1-based index of this shard. */
  readonly index: number;
  readonly count: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) throw new UsageError(`bad shard "${text}": expected <i>/<n>, for example 2/4`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || index < 1 || index > count) throw new UsageError(`bad shard "${text}": need 1 <= i <= n`);
  return { index, count };
}

/** The seeds of a range that belong to one shard: every n-th seed, starting at the i-th. */
export function seedsOf(range: SeedRange, shard?: Shard): number[] {
  const seeds: number[] = [];
  for (let seed = range.from; seed <= range.to; seed++) {
    if (!shard || (seed - range.from) % shard.count === shard.index - 1) seeds.push(seed);
  }
  return seeds;
}
