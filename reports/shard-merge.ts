// `testbed merge`: n shard files of one run become the GateRunInput the whole run would have
// saved. A set is merged only when it is exactly shards 1..n of one run by one testbed version,
// and each shard holds the share its index gives it (campaign/shard-plan.ts); anything else is
// refused with one line naming the shard. Merging adds up what adds up (seeds run, failures, suite
// tests), keeps the lowest-seeded first failure and sample, and puts every list in the order a
// whole run writes it, so the gate statuses and counts equal those of the unsharded run.

import { backendOf, gateStageAdapter, realFaultAdapter } from '../backends/index.ts';
import { isDeepStrictEqual } from 'node:util';
import { GATE_WORK_FIELDS, shareOf, type ShardShare } from '../campaign/shard-plan.ts';
import type { RunResult } from '../sim/run-result.ts';
import type { GateRunInput, ScenarioEvidence, SuiteEvidence } from '../campaign/gates/evidence.ts';
import type { ShardFile } from './shard-file.ts';

/** A shard set that cannot be merged; the message is one line naming the shard. */
export class ShardSetError extends Error {
  override readonly name = 'ShardSetError';
}

export interface LoadedShard {
  readonly path: string;
  readonly file: ShardFile;
}

const label = (s: LoadedShard) => `${s.file.shard.index}/${s.file.shard.count}`;

/** Throws ShardSetError unless `shards` are exactly shards 1..n of one run of testbed `version`. */
export function checkShardSet(shards: ReadonlyArray<LoadedShard>, version: string): void {
  const first = shards[0];
  if (first === undefined) throw new ShardSetError('no shard files given');
  const seen = new Map<number, string>();
  for (const shard of shards) {
    const { file, path } = shard;
    if (file.testbed !== version) throw new ShardSetError(`${path}: shard ${label(shard)} was written by testbed ${file.testbed}; this is ${version} (merge with the version that ran the shards)`);
    if (file.command !== first.file.command) throw new ShardSetError(`${path}: a shard of \`${file.command}\`, but ${first.path} is a shard of \`${first.file.command}\``);
    if (file.run !== first.file.run) throw new ShardSetError(`${path}: shard ${label(shard)} is of run ${file.run ?? '(no TESTBED_RUN_ID)'}, but ${first.path} is of run ${first.file.run ?? '(no TESTBED_RUN_ID)'}`);
    if (file.shard.count !== first.file.shard.count) throw new ShardSetError(`${path}: shard ${label(shard)}, but ${first.path} is shard ${label(first)}: the set must split one run into the same number of shards`);
    const differs = differingField(file, first.file);
    if (differs !== null) throw new ShardSetError(`${path}: shard ${label(shard)} is of another run than ${first.path}: they differ in ${differs}`);
    const twice = seen.get(file.shard.index);
    if (twice !== undefined) throw new ShardSetError(`${path}: shard ${label(shard)} is given twice (also ${twice}); its seeds would count twice`);
    seen.set(file.shard.index, path);
    checkShare(shard, shareOf(file.work, file.shard));
  }
  const count = first.file.shard.count;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) {
    const shown = missing.slice(0, 5).map((i) => `${i}/${count}`).join(', ');
    throw new ShardSetError(`shard${missing.length === 1 ? '' : 's'} ${shown}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''} missing: got ${seen.size} of ${count}`);
  }
}

function differingField(a: ShardFile, b: ShardFile): string | null {
  for (const key of GATE_WORK_FIELDS) {
    if (!isDeepStrictEqual(a.work[key], b.work[key])) return key === 'scenarios' || key === 'mutants' ? `${key.slice(0, -1)} set` : key;
  }
  return null;
}

/** The sweeps a shard's share holds: each scenario on memory, on PostgreSQL when it has seeds there, and its real-fault runs. */
function expectedSweeps(shard: LoadedShard, share: ShardShare): Set<string> {
  const keys = new Set<string>();
  for (const scenario of shard.file.work.scenarios) {
    keys.add(keyOf({ scenario, adapter: gateStageAdapter('memory'), faults: 'sim' }));
    if (share.pgSeeds.length > 0) keys.add(keyOf({ scenario, adapter: gateStageAdapter('database'), faults: 'sim' }));
  }
  for (const scenario of share.realFaultScenarios) keys.add(keyOf({ scenario, adapter: realFaultAdapter(), faults: 'real' }));
  return keys;
}

/** The file must hold exactly the sweeps and hunts its index gives it, each once, over exactly its seeds. */
function checkShare(shard: LoadedShard, share: ShardShare): void {
  const where = `${shard.path}: shard ${label(shard)}`;
  const expected = expectedSweeps(shard, share);
  const seen = new Set<string>();
  for (const e of shard.file.results.scenarios) {
    const what = `${e.scenario} on ${e.adapter} (${e.faults} faults)`;
    if (!expected.has(keyOf(e))) throw new ShardSetError(`${where} holds a sweep of ${what}, which is not in its share`);
    if (seen.has(keyOf(e))) throw new ShardSetError(`${where} holds the sweep of ${what} twice`);
    seen.add(keyOf(e));
    const seeds = e.faults === 'real' ? 1 : backendOf(e.adapter)?.gateStage === 'memory' ? share.memorySeeds.length : share.pgSeeds.length;
    if (e.seedsRun !== seeds) throw new ShardSetError(`${where} ran ${what} over ${e.seedsRun} seeds; its share is ${seeds}`);
  }
  const missing = [...expected].find((key) => !seen.has(key));
  if (missing !== undefined) throw new ShardSetError(`${where} lacks the sweep of ${missing.split('\u0000').join(' on ')}, which is in its share`);
  const mutants = shard.file.results.mutants.map((m) => m.name);
  const foreign = mutants.find((name) => !share.mutants.includes(name));
  if (foreign !== undefined) throw new ShardSetError(`${where} holds mutant ${foreign}, which is another shard's share`);
  const twice = mutants.find((name, i) => mutants.indexOf(name) !== i);
  if (twice !== undefined) throw new ShardSetError(`${where} holds mutant ${twice} twice`);
  const absent = share.mutants.find((name) => !mutants.includes(name));
  if (absent !== undefined) throw new ShardSetError(`${where} lacks mutant ${absent}, which is in its share`);
}

/** Memory sweeps first, then PostgreSQL, then real faults (the order of a whole gate run). */
function stageRank(e: { readonly adapter: string; readonly faults: string }): number {
  return e.faults === 'real' ? 2 : backendOf(e.adapter)?.gateStage === 'memory' ? 0 : 1;
}

const keyOf = (e: { readonly scenario: string; readonly adapter: string; readonly faults: string }) => `${e.scenario}\u0000${e.adapter}\u0000${e.faults}`;

function mergeSweeps(parts: ReadonlyArray<ScenarioEvidence>): ScenarioEvidence {
  const first = parts[0]!;
  const failures = parts.reduce((n, e) => n + e.failures, 0);
  const firstFailure = parts
    .map((e) => e.firstFailure)
    .filter((f) => f !== undefined)
    .sort((a, b) => a.seed - b.seed)[0];
  const undecided = parts.some((e) => e.status === 'unknown');
  const { firstFailure: _, status: __, durationMs: ___, ...rest } = first;
  return {
    ...rest,
    seedsRun: parts.reduce((n, e) => n + e.seedsRun, 0),
    failures,
    ...(firstFailure === undefined ? {} : { firstFailure }),
    // As in one sweep: undecided only when no seed failed and some seed could not be decided.
    status: failures === 0 && undecided ? 'unknown' : 'decided',
    durationMs: parts.reduce((n, e) => n + (e.durationMs ?? 0), 0),
  };
}

function mergeSuites(parts: ReadonlyArray<SuiteEvidence>): SuiteEvidence {
  return {
    name: parts[0]!.name,
    passed: parts.reduce((n, s) => n + s.passed, 0),
    failed: parts.reduce((n, s) => n + s.failed, 0),
    durationMs: parts.reduce((n, s) => n + (s.durationMs ?? 0), 0),
  };
}

function groupBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group === undefined) groups.set(key(item), [item]);
    else group.push(item);
  }
  return groups;
}

/** Of each sweep's kept runs: the lowest seed (a whole run's sample) and the lowest failing seed. */
function mergeSamples(samples: ReadonlyArray<RunResult>): RunResult[] {
  const kept: RunResult[] = [];
  for (const group of groupBy(samples, keyOf).values()) {
    const bySeed = [...group].sort((a, b) => a.seed - b.seed);
    const lowest = bySeed[0]!;
    const failing = bySeed.find((run) => run.valid === false);
    kept.push(lowest);
    if (failing !== undefined && failing !== lowest) kept.push(failing);
  }
  return kept;
}

/** The whole run's input from a checked shard set (`checkShardSet` first). */
export function mergeShards(shards: ReadonlyArray<LoadedShard>): GateRunInput {
  const ordered = [...shards].sort((a, b) => a.file.shard.index - b.file.shard.index);
  const work = ordered[0]!.file.work;
  const results = ordered.map((s) => s.file.results);
  // Real-fault runs go in the order of the run's list of them, every other sweep in catalogue order.
  const scenarioIndex = (e: { readonly scenario: string; readonly faults: string }) => (e.faults === 'real' ? work.realFaultScenarios : work.scenarios).indexOf(e.scenario);
  const byRunOrder = <T extends { readonly scenario: string; readonly adapter: string; readonly faults: string }>(a: T, b: T) =>
    stageRank(a) - stageRank(b) || scenarioIndex(a) - scenarioIndex(b);
  const scenarios = [...groupBy(results.flatMap((r) => r.scenarios), keyOf).values()].map(mergeSweeps).sort(byRunOrder);
  const samples = mergeSamples(results.flatMap((r) => r.samples)).sort((a, b) => byRunOrder(a, b) || a.seed - b.seed);
  const mutants = results.flatMap((r) => r.mutants).sort((a, b) => work.mutants.indexOf(a.name) - work.mutants.indexOf(b.name));
  const suites = [...groupBy(results.flatMap((r) => r.suites), (s) => s.name).values()].map(mergeSuites);
  const times = (pick: (r: GateRunInput) => string) => results.map((r) => Date.parse(pick(r)));
  return {
    startedAt: new Date(Math.min(...times((r) => r.startedAt))).toISOString(),
    finishedAt: new Date(Math.max(...times((r) => r.finishedAt))).toISOString(),
    scenarios,
    mutants,
    suites,
    samples,
  };
}
