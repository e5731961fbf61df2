// `testbed merge` on hand-built shard files: what adds up is added, the lowest-seeded failure and
// sample are kept, and a set that is not exactly shards 1..n of one run is refused in one line.

import { describe, expect, test } from 'vitest';
import { shareOf, type GateWork, type Shard } from '../../campaign/shard-plan.ts';
import type { MutantEvidence, ScenarioEvidence } from '../../reports/index.ts';
import { SHARD_FORMAT, type ShardFile } from '../../reports/shard-file.ts';
import { checkShardSet, mergeShards, ShardSetError, type LoadedShard } from '../../reports/shard-merge.ts';
import { CLEAN_RUN, STALE_RUN } from './fixtures.ts';

const WORK: GateWork = { seeds: 5, pgSeeds: 0, postgres: false, scenarios: ['standard-mix', 'stale-holder'], realFaultScenarios: [], mutants: ['m0', 'm1', 'm2'] };

function sweep(scenario: string, seeds: ReadonlyArray<number>, failing: ReadonlyArray<number>, undecided = false): ScenarioEvidence {
  const failures = seeds.filter((s) => failing.includes(s));
  return {
    scenario,
    title: scenario,
    sources: [],
    adapter: 'memory',
    faults: 'sim',
    expect: 'pass',
    seedsRun: seeds.length,
    failures: failures.length,
    ...(failures.length === 0 ? {} : { firstFailure: { seed: failures[0]!, replay: `replay ${scenario} ${failures[0]}`, violations: [] } }),
    status: failures.length === 0 && undecided ? 'unknown' : 'decided',
    durationMs: 10,
  };
}

const mutant = (name: string): MutantEvidence => ({ name, bug: name, caught: true, seedsTried: 1, firstFailingSeed: 1 });

/** Shard i of n of WORK, with stale-holder failing on `failing` seeds; standard-mix undecided when asked. */
function shard(index: number, count: number, failing: ReadonlyArray<number> = [], options: { undecided?: boolean; work?: GateWork; testbed?: string } = {}): LoadedShard {
  const at: Shard = { index, count };
  const work = options.work ?? WORK;
  const share = shareOf(work, at);
  const seeds = share.memorySeeds;
  const results = {
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
    finishedAt: new Date(Date.UTC(2026, 0, 1, 1, index)).toISOString(),
    scenarios: [sweep('standard-mix', seeds, [], options.undecided), sweep('stale-holder', seeds, failing)],
    mutants: share.mutants.map(mutant),
    suites: [{ name: 'check-mutants', passed: share.mutants.length, failed: 0 }, ...(share.suites ? [{ name: 'conformance', passed: 7, failed: 0 }] : [])],
    samples: [
      ...(seeds.length === 0 ? [] : [{ ...CLEAN_RUN, seed: seeds[0]! }]),
      ...seeds.filter((s) => failing.includes(s)).map((seed) => ({ ...STALE_RUN, seed })),
    ],
  };
  const file: ShardFile = { format: SHARD_FORMAT, testbed: options.testbed ?? '1.0.0', command: 'gates', shard: at, work, results };
  return { path: `s${index}/shard-${index}-of-${count}.json`, file };
}

describe('mergeShards', () => {
  test('adds up seeds, failures and suites; keeps the lowest failing seed, the lowest sample and the run order', () => {
    const set = [shard(2, 2, [2, 4]), shard(1, 2, [5])];
    checkShardSet(set, '1.0.0');
    const merged = mergeShards(set);
    expect(merged.scenarios.map((e) => [e.scenario, e.seedsRun, e.failures, e.firstFailure?.seed ?? null])).toEqual([
      ['standard-mix', 5, 0, null],
      ['stale-holder', 5, 3, 2],
    ]);
    expect(merged.mutants.map((m) => m.name)).toEqual(['m0', 'm1', 'm2']);
    expect(merged.suites).toEqual([
      { name: 'check-mutants', passed: 3, failed: 0, durationMs: 0 },
      { name: 'conformance', passed: 7, failed: 0, durationMs: 0 },
    ]);
    // A whole run keeps seed 1 of each sweep and its first failing seed.
    expect(merged.samples.map((r) => [r.scenario, r.seed])).toEqual([
      ['standard-mix', 1],
      ['stale-holder', 2],
    ]);
    expect([merged.startedAt, merged.finishedAt]).toEqual(['2026-01-01T00:01:00.000Z', '2026-01-01T01:02:00.000Z']);
  });

  test('a sweep is undecided only when no shard saw it fail and some shard could not decide', () => {
    const merged = mergeShards([shard(1, 2, [], { undecided: true }), shard(2, 2)]);
    expect(merged.scenarios.find((e) => e.scenario === 'standard-mix')?.status).toBe('unknown');
    expect(merged.scenarios.find((e) => e.scenario === 'stale-holder')?.status).toBe('decided');
  });
});

describe('checkShardSet refuses, in one line naming the shard,', () => {
  const refused = (set: ReadonlyArray<LoadedShard>) => {
    try {
      checkShardSet(set, '1.0.0');
    } catch (error) {
      expect(error).toBeInstanceOf(ShardSetError);
      expect((error as Error).message).not.toContain('\n');
      return (error as Error).message;
    }
    throw new Error('the set was accepted');
  };
  const tampered = (s: LoadedShard, results: Partial<ShardFile['results']>): LoadedShard => ({ ...s, file: { ...s.file, results: { ...s.file.results, ...results } } });

  test('a missing shard', () => expect(refused([shard(1, 3), shard(3, 3)])).toBe('shard 2/3 missing: got 2 of 3'));
  test('a duplicated shard', () => expect(refused([shard(1, 2), shard(2, 2), shard(2, 2)])).toMatch(/^s2\/shard-2-of-2\.json: shard 2\/2 is given twice/));
  test('shards of different splits', () => expect(refused([shard(1, 2), shard(2, 3)])).toMatch(/^s2\/shard-2-of-3\.json: shard 2\/3, but s1\/shard-1-of-2\.json is shard 1\/2/));
  test('another version', () => expect(refused([shard(1, 1, [], { testbed: '0.9.0' })])).toMatch(/written by testbed 0\.9\.0; this is 1\.0\.0/));
  test('another run', () => expect(refused([shard(1, 2), shard(2, 2, [], { work: { ...WORK, seeds: 6 } })])).toMatch(/is of another run than s1\/shard-1-of-2\.json: they differ in seeds$/));
  test('another scenario set', () => expect(refused([shard(1, 2), shard(2, 2, [], { work: { ...WORK, scenarios: ['standard-mix'] } })])).toMatch(/they differ in scenario set$/));
  test('seeds beyond its share (overlapping another shard)', () => {
    const s = shard(2, 2);
    const grown = tampered(s, { scenarios: s.file.results.scenarios.map((e) => ({ ...e, seedsRun: e.seedsRun + 1 })) });
    expect(refused([shard(1, 2), grown])).toMatch(/shard 2\/2 ran standard-mix on memory \(sim faults\) over 3 seeds; its share is 2/);
  });
  test("another shard's mutant", () => {
    const s = shard(1, 2);
    expect(refused([tampered(s, { mutants: [mutant('m1')] }), shard(2, 2)])).toMatch(/holds mutant m1, which is another shard's share/);
  });
  test('no shard at all', () => expect(refused([])).toBe('no shard files given'));
  test('a sweep of its share missing, or held twice', () => {
    const s = shard(2, 2);
    const [mix, stale] = s.file.results.scenarios;
    expect(refused([shard(1, 2), tampered(s, { scenarios: [mix!] })])).toMatch(/shard 2\/2 lacks the sweep of stale-holder on memory on sim, which is in its share/);
    expect(refused([shard(1, 2), tampered(s, { scenarios: [mix!, stale!, stale!] })])).toMatch(/holds the sweep of stale-holder on memory \(sim faults\) twice/);
  });
  test('a mutant of its share missing', () => {
    const s = shard(1, 2);
    expect(refused([tampered(s, { mutants: [] }), shard(2, 2)])).toMatch(/shard 1\/2 lacks mutant m\w, which is in its share/);
  });
  test('shards of different runs (TESTBED_RUN_ID)', () => {
    const other = shard(2, 2);
    expect(refused([shard(1, 2), { ...other, file: { ...other.file, run: 'ci-42-1' } }])).toMatch(/shard 2\/2 is of run ci-42-1, but s1\/shard-1-of-2\.json is of run \(no TESTBED_RUN_ID\)/);
  });
});
