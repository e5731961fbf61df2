// Shards split a gate run so that n shards together do each piece of it exactly once, and the
// environment names a shard as a CI matrix or a Kubernetes Indexed Job would.

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { shareOf, WHOLE, type GateWork } from '../../campaign/shard-plan.ts';
import { shardFrom } from '../../cli/seeds.ts';

const work = (seeds: number, pgSeeds: number, mutants: number): GateWork => ({
  seeds,
  pgSeeds,
  postgres: true,
  scenarios: ['a', 'b'],
  realFaultScenarios: ['db-failover', 'restore'],
  mutants: Array.from({ length: mutants }, (_, i) => `m${i}`),
});

describe('shareOf', () => {
  test.prop([fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 12 })])(
    'n shards together do every seed, real-fault run, mutant and suite exactly once',
    (seeds, pgSeeds, mutants, n) => {
      const w = work(seeds, pgSeeds, mutants);
      const shares = Array.from({ length: n }, (_, i) => shareOf(w, { index: i + 1, count: n }));
      const whole = shareOf(w, WHOLE);
      const sorted = (xs: ReadonlyArray<number | string>) => [...xs].sort();
      expect(sorted(shares.flatMap((s) => s.memorySeeds))).toEqual(sorted(whole.memorySeeds));
      expect(sorted(shares.flatMap((s) => s.pgSeeds))).toEqual(sorted(whole.pgSeeds));
      expect(sorted(shares.flatMap((s) => s.realFaultScenarios))).toEqual(sorted(whole.realFaultScenarios));
      expect(sorted(shares.flatMap((s) => s.mutants))).toEqual(sorted(whole.mutants));
      expect(shares.filter((s) => s.suites)).toHaveLength(1);
      expect(shares.filter((s) => s.checkPostgres)).toHaveLength(1);
      // Balanced: no shard has more than one piece of a kind over another.
      const spread = (pick: (s: (typeof shares)[number]) => ReadonlyArray<unknown>) => Math.max(...shares.map((s) => pick(s).length)) - Math.min(...shares.map((s) => pick(s).length));
      expect(spread((s) => s.memorySeeds)).toBeLessThanOrEqual(1);
      expect(spread((s) => s.mutants)).toBeLessThanOrEqual(1);
    },
  );

  test('the whole run is seeds 1..n; without PostgreSQL there is no PostgreSQL work', () => {
    expect(shareOf(work(3, 2, 1), WHOLE)).toEqual({ memorySeeds: [1, 2, 3], pgSeeds: [1, 2], realFaultScenarios: ['db-failover', 'restore'], mutants: ['m0'], suites: true, checkPostgres: true });
    const off = shareOf({ ...work(3, 2, 1), postgres: false }, { index: 1, count: 2 });
    expect([off.pgSeeds, off.realFaultScenarios, off.checkPostgres]).toEqual([[], [], false]);
  });
});

describe('shardFrom', () => {
  test('--shard, then TESTBED_SHARD, then TESTBED_SHARDS with the 0-based JOB_COMPLETION_INDEX', () => {
    expect(shardFrom('2/4', { TESTBED_SHARD: '1/4' })).toEqual({ index: 2, count: 4 });
    expect(shardFrom(undefined, { TESTBED_SHARD: '3/5' })).toEqual({ index: 3, count: 5 });
    expect(shardFrom(undefined, { TESTBED_SHARDS: '8', JOB_COMPLETION_INDEX: '0' })).toEqual({ index: 1, count: 8 });
    expect(shardFrom(undefined, { TESTBED_SHARDS: '8', JOB_COMPLETION_INDEX: '7' })).toEqual({ index: 8, count: 8 });
    expect(shardFrom(undefined, { JOB_COMPLETION_INDEX: '3' })).toBeUndefined();
    expect(shardFrom(undefined, {})).toBeUndefined();
  });

  test('a bad shard from anywhere is a one-line usage error naming where it came from', () => {
    expect(() => shardFrom('0/3', {})).toThrow(/bad shard "0\/3": need 1 <= i <= n/);
    expect(() => shardFrom(undefined, { TESTBED_SHARD: 'two' })).toThrow(/bad TESTBED_SHARD "two"/);
    expect(() => shardFrom(undefined, { TESTBED_SHARDS: '8' })).toThrow(/TESTBED_SHARDS=8 needs JOB_COMPLETION_INDEX/);
    expect(() => shardFrom(undefined, { TESTBED_SHARDS: '8', JOB_COMPLETION_INDEX: '8' })).toThrow(/need 1 <= i <= n/);
  });
});
