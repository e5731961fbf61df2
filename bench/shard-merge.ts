// Sweeps beyond one machine: how fast one shard runs its share (seed-runs per second of the memory
// stage of `gates --shard 1/n`, on one thread), and how long `testbed merge` takes to read, check
// and combine n shard files. The files are simulated: the evidence of n shards of `seedsPerShard`
// seeds per scenario, with the histories a real shard keeps (seed 1's run of every scenario in
// the first shard, each shard's first failing run), so their size is that of real shard files.

import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MUTANTS } from '../mutants/index.ts';
import { inProcessAdapter } from '../mutants/in-process.ts';
import { shareOf, type GateWork, type Shard } from '../campaign/shard-plan.ts';
import { loadShardFile, saveShardFile, SHARD_FORMAT, shardFileName } from '../reports/shard-file.ts';
import { checkShardSet, mergeShards, type LoadedShard } from '../reports/shard-merge.ts';
import type { ScenarioEvidence } from '../reports/index.ts';
import { listScenarios } from '../scenarios/index.ts';
import type { RunResult } from '../sim/run-result.ts';
import { runScenario } from '../sim/run.ts';
import { sweepRun } from '../campaign/sweep-pool.ts';

export interface ShardMergeOptions {
  readonly shards: number;
  readonly seedsPerShard: number;
  /** Seeds per scenario the measured shard really runs (its share of shards × runSeeds). */
  readonly runSeeds: number;
}

export interface ShardMergeResult {
  readonly shards: number;
  readonly seedsPerShard: number;
  /** Seed-runs per second of one shard's memory stage, every scenario, one thread. */
  readonly shardSeedRunsPerSecond: number;
  readonly shardRuns: number;
  /** Total size of the n shard files. */
  readonly filesMb: number;
  /** Reading, checking and combining the n files (what `testbed merge` does before it renders). */
  readonly mergeMs: number;
  /** Seed-runs the merged evidence accounts for. */
  readonly mergedSeedRuns: number;
}

const VERSION = 'bench';

async function shardThroughput(options: ShardMergeOptions): Promise<{ runs: number; perSecond: number }> {
  const memory = inProcessAdapter('memory')!;
  const work = gateWork(options.shards * options.runSeeds);
  const seeds = shareOf(work, { index: 1, count: options.shards }).memorySeeds;
  const scenarios = listScenarios();
  const started = performance.now();
  let runs = 0;
  for (const scenario of scenarios) {
    for (const seed of seeds) {
      await sweepRun(scenario, seed, memory);
      runs++;
    }
  }
  return { runs, perSecond: runs / ((performance.now() - started) / 1000) };
}

function gateWork(seeds: number): GateWork {
  return { seeds, pgSeeds: 0, postgres: false, scenarios: listScenarios().map((s) => s.name), realFaultScenarios: [], mutants: MUTANTS.map((m) => m.name) };
}

/** One simulated shard file: every scenario over the shard's seeds, failing where it must. */
function simulatedShard(work: GateWork, shard: Shard, seedOne: ReadonlyMap<string, RunResult>): Parameters<typeof saveShardFile>[0] {
  const share = shareOf(work, shard);
  const first = share.memorySeeds[0]!;
  const scenarios: ScenarioEvidence[] = [];
  const samples: RunResult[] = [];
  for (const s of listScenarios()) {
    const run = seedOne.get(s.name)!;
    const fails = s.expect === 'violation';
    scenarios.push({
      scenario: s.name, title: s.title, sources: s.sources, adapter: 'memory', faults: 'sim', expect: s.expect,
      seedsRun: share.memorySeeds.length,
      failures: fails ? share.memorySeeds.length : 0,
      ...(fails ? { firstFailure: { seed: first, replay: run.replay, violations: run.violations } } : {}),
      status: 'decided',
      durationMs: 1,
    });
    if (shard.index === 1 || fails) samples.push({ ...run, seed: first });
  }
  const mutants = share.mutants.map((name) => ({ name, bug: name, caught: true, seedsTried: 1, firstFailingSeed: 1 }));
  const at = new Date(0).toISOString();
  return {
    format: SHARD_FORMAT, testbed: VERSION, command: 'gates', shard, work,
    results: { startedAt: at, finishedAt: at, scenarios, mutants, suites: [{ name: 'check-mutants', passed: mutants.length, failed: 0 }], samples },
  };
}

export async function measureShardMerge(options: ShardMergeOptions): Promise<ShardMergeResult> {
  const throughput = await shardThroughput(options);
  const memory = inProcessAdapter('memory')!;
  const seedOne = new Map<string, RunResult>();
  for (const scenario of listScenarios()) seedOne.set(scenario.name, await runScenario({ scenario, seed: 1, store: memory.store }));
  const work = gateWork(options.shards * options.seedsPerShard);
  const dir = await mkdtemp(path.join(tmpdir(), 'testbed-bench-shards-'));
  try {
    const files: string[] = [];
    let bytes = 0;
    for (let index = 1; index <= options.shards; index++) {
      const shard = { index, count: options.shards };
      const file = path.join(dir, shardFileName(shard));
      await saveShardFile(simulatedShard(work, shard, seedOne), file);
      bytes += (await stat(file)).size;
      files.push(file);
    }
    const started = performance.now();
    const loaded: LoadedShard[] = [];
    for (const file of files) loaded.push({ path: file, file: await loadShardFile(file) });
    checkShardSet(loaded, VERSION);
    const merged = mergeShards(loaded);
    const mergeMs = performance.now() - started;
    return {
      shards: options.shards,
      seedsPerShard: options.seedsPerShard,
      shardSeedRunsPerSecond: throughput.perSecond,
      shardRuns: throughput.runs,
      filesMb: bytes / 2 ** 20,
      mergeMs,
      mergedSeedRuns: merged.scenarios.reduce((n, e) => n + e.seedsRun, 0),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
