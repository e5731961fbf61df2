// The benchmark suite: every figure measured in one process, one after another, each set beside
// its baseline (measured in the same run) or its limit from docs/ARCHITECTURE.md "Performance targets".
// `quick` shrinks every figure to a smoke run; `postgres: false` leaves out the figures that need
// a PostgreSQL server.

import { availableParallelism, cpus } from 'node:os';
import { MUTANTS } from '../mutants/index.ts';
import { measureEventRate, type EventRateResult } from './event-rate.ts';
import { measureRaceExhaust, type RaceExhaust } from './race-exhaust.ts';
import { measureRaceThroughput, type RaceThroughput } from './race-throughput.ts';
import { measureLockstepReplay, type LockstepReplayResult } from './lockstep-replay.ts';
import { measureMutantDetection, type MutantDetection } from './mutant-detection.ts';
import { measureStageRace, type StageRace } from './stage-race.ts';
import { measurePostgresThroughput, type PostgresThroughputResult } from './postgres-throughput.ts';
import { measurePoolThroughput, type PoolThroughputResult } from './pool-throughput.ts';
import { median, rounded } from './sample.ts';
import { measureSeedThroughput, type SeedThroughputResult } from './seed-throughput.ts';
import { measureShardMerge, type ShardMergeResult } from './shard-merge.ts';
import { measureSweepMemory, type SweepMemoryResult } from './sweep-memory.ts';
import { measureCliSweepMemory, type CliSweepMemory } from './cli-sweep-memory.ts';

export const STANDARD_SCENARIO = 'standard-mix';

/** The limits of docs/ARCHITECTURE.md "Performance targets". */
export const TARGETS = Object.freeze({
  eventRateRatioMin: 0.3,
  seedsPerSecondMin: 500,
  simulatedPerWallMin: 10_000,
  mutantSeedBudget: 200,
  medianSeedsToCatchBelow: 20,
  shrunkOperationsMax: 12,
  postgresRatioMin: 0.5,
  /** Heap at the end of the sweep over heap at its first checkpoint: flat means at most this. */
  heapGrowthMax: 1.25,
  /** Peak RSS of a `sweep --workers 1` CLI child over 10,000 seeds (MB). */
  cliSweepRssMbMax: 300,
  /** The command-level check catches a store mutant within this time and shrinks it to this many steps. */
  checkMsMax: 5_000,
  checkStepsMax: 6,
  /** `testbed race --adapter postgres` exhausts every pair of kinds within this (30 minutes on 2 cores). */
  raceExhaustSecondsMax: 1_800,
});

export interface BenchOptions {
  readonly quick: boolean;
  readonly postgres: boolean;
  /** Called before each figure, for progress on stderr. */
  readonly onFigure?: (name: string) => void;
}

export interface PostgresFigure extends PostgresThroughputResult {
  readonly connections: number;
}

export interface MutantFigure {
  readonly seedBudget: number;
  readonly total: number;
  readonly caught: number;
  readonly medianSeedsToCatch: number | null;
  readonly mutants: ReadonlyArray<MutantDetection>;
}

/** One line of the printed table: a figure beside its baseline or limit. */
export interface BenchRow {
  readonly figure: string;
  readonly measured: string;
  readonly against: string;
  /** Whether the figure meets its limit; null where there is no limit (a baseline only). */
  readonly meets: boolean | null;
}

export interface BenchReport {
  readonly version: 1;
  readonly quick: boolean;
  /** Report metadata only: no figure depends on it. */
  readonly machine: { readonly node: string; readonly cpus: number; readonly cpuModel: string; readonly startedAt: string };
  readonly eventRate: EventRateResult;
  readonly seedThroughput: SeedThroughputResult;
  /** The same scenario on every core through the sweep pool. */
  readonly poolThroughput: PoolThroughputResult;
  readonly mutants: MutantFigure;
  readonly postgres: ReadonlyArray<PostgresFigure> | null;
  readonly lockstepReplay: LockstepReplayResult | null;
  /** The same runs under controlled interleaving (random walk). */
  readonly interleavedReplay: LockstepReplayResult | null;
  /** The race stage on the built-in store: schedules per second over the lease kinds' cases. */
  readonly race: RaceThroughput | null;
  /** `testbed race` on every pair of kinds of the built-in store, timed whole (full bench only). */
  readonly raceExhaust: RaceExhaust | null;
  readonly sweepMemory: SweepMemoryResult;
  /** Peak RSS of `testbed sweep --workers 1` over a short and a four times longer range, memory store and a store module. */
  readonly cliSweepMemory: ReadonlyArray<CliSweepMemory>;
  /** Per store mutant, time to the first failure of the command-level check and of a sweep. */
  readonly stageRace: ReadonlyArray<StageRace>;
  /** One shard's seed-runs per second, and merging n simulated shard files. */
  readonly shards: ShardMergeResult;
  readonly rows: ReadonlyArray<BenchRow>;
}

/** The figures' sizes: full runs for the report, a smoke run with `quick`. */
function sizes(quick: boolean) {
  return quick
    ? { eventSeeds: 10, seedSeeds: 20, poolSeeds: 40, rounds: 2, raceSeeds: 5, raceRuns: 5_000, mutantSeeds: 20, mutants: MUTANTS.filter((m) => m.name === 'semaphore-off-by-one' || m.name === 'release-before-reconcile'), pgMs: 300, pgRounds: 1, lockstepSeeds: 1, sweepSeeds: 200, sampleEvery: 50, cliSeeds: [100, 400] as const, shards: 8, shardRunSeeds: 1 }
    : { eventSeeds: 200, seedSeeds: 500, poolSeeds: 4_000, rounds: 5, raceSeeds: 50, raceRuns: 5_000, mutantSeeds: TARGETS.mutantSeedBudget, mutants: MUTANTS, pgMs: 2_000, pgRounds: 5, lockstepSeeds: 5, sweepSeeds: 10_000, sampleEvery: 500, cliSeeds: [2_500, 10_000] as const, shards: 64, shardRunSeeds: 10 };
}

const fmt = (value: number): string => rounded(value).toLocaleString('en-US');
const pct = (ratio: number): string => `${(ratio * 100).toFixed(1)}%`;

export async function runBench(options: BenchOptions): Promise<BenchReport> {
  const size = sizes(options.quick);
  const startedAt = new Date().toISOString();
  const step = (name: string): void => options.onFigure?.(name);

  step('simulator event rate');
  const eventRate = await measureEventRate({ scenario: STANDARD_SCENARIO, seeds: size.eventSeeds, rounds: size.rounds });
  step('seeds per second');
  const seedThroughput = await measureSeedThroughput({ scenario: STANDARD_SCENARIO, seeds: size.seedSeeds, rounds: size.rounds });
  step('seeds per second on every core');
  const poolThroughput = await measurePoolThroughput({ scenario: STANDARD_SCENARIO, seeds: size.poolSeeds });
  step('mutant detection');
  // A mutant only the command-level check reaches is not hunted: the stage race below times its check.
  const detections = await measureMutantDetection({ seeds: size.mutantSeeds, mutants: size.mutants.filter((m) => m.checkOnly === undefined) });
  const caught = detections.filter((d) => d.caught);
  const mutants: MutantFigure = {
    seedBudget: size.mutantSeeds,
    total: detections.length,
    caught: caught.length,
    medianSeedsToCatch: caught.length === 0 ? null : median(caught.map((d) => d.seedsToCatch!)),
    mutants: detections,
  };
  step('time to first failure: command-level check beside sweep');
  const stageRace = await measureStageRace({ sweepSeeds: size.raceSeeds, checkRuns: size.raceRuns, mutants: size.mutants });
  let postgres: PostgresFigure[] | null = null;
  let lockstepReplay: LockstepReplayResult | null = null;
  let interleavedReplay: LockstepReplayResult | null = null;
  let race: RaceThroughput | null = null;
  let raceExhaust: RaceExhaust | null = null;
  if (options.postgres) {
    postgres = [];
    for (const connections of [1, 16]) {
      step(`PostgreSQL throughput, ${connections} connection(s)`);
      postgres.push({ connections, ...(await measurePostgresThroughput({ connections, durationMs: size.pgMs, rounds: size.pgRounds })) });
    }
    step('lockstep replay on PostgreSQL');
    lockstepReplay = await measureLockstepReplay({ scenario: STANDARD_SCENARIO, seeds: size.lockstepSeeds });
    step('interleaved replay on PostgreSQL');
    interleavedReplay = await measureLockstepReplay({ scenario: STANDARD_SCENARIO, seeds: size.lockstepSeeds, interleave: 'random' });
    step('race stage on PostgreSQL');
    race = await measureRaceThroughput(['Acquire', 'Renew', 'Release']);
    if (!options.quick) {
      step('race stage: every pair of kinds on the built-in store');
      raceExhaust = await measureRaceExhaust();
    }
  }
  step(`memory over a ${size.sweepSeeds}-seed sweep`);
  const sweepMemory = await measureSweepMemory({ scenario: STANDARD_SCENARIO, seeds: size.sweepSeeds, sampleEvery: size.sampleEvery });
  step(`peak RSS of the sweep CLI over ${size.cliSeeds[0]} and ${size.cliSeeds[1]} seeds, memory store and a store module`);
  const cliSweepMemory = [await measureCliSweepMemory('memory', size.cliSeeds), await measureCliSweepMemory('module', size.cliSeeds)];

  step(`one shard's seed-runs per second; merging ${size.shards} shard files`);
  const shards = await measureShardMerge({ shards: size.shards, seedsPerShard: 10_000, runSeeds: size.shardRunSeeds });

  const rows = tableRows({ eventRate, seedThroughput, poolThroughput, mutants, postgres, lockstepReplay, interleavedReplay, race, raceExhaust, sweepMemory, cliSweepMemory, stageRace, shards });
  const machine = { node: process.version, cpus: availableParallelism(), cpuModel: cpus()[0]?.model ?? 'unknown', startedAt };
  return { version: 1, quick: options.quick, machine, eventRate, seedThroughput, poolThroughput, mutants, postgres, lockstepReplay, interleavedReplay, race, raceExhaust, sweepMemory, cliSweepMemory, stageRace, shards, rows };
}

function tableRows(r: Omit<BenchReport, 'version' | 'quick' | 'machine' | 'rows'>): BenchRow[] {
  const rows: BenchRow[] = [
    {
      figure: 'simulator event rate (events/s)',
      measured: `${fmt(r.eventRate.simEventsPerSecond)} (${pct(r.eventRate.ratio)} of bare loop)`,
      against: `bare event-queue loop ${fmt(r.eventRate.bareEventsPerSecond)}; target ≥ ${pct(TARGETS.eventRateRatioMin)}`,
      meets: r.eventRate.ratio >= TARGETS.eventRateRatioMin,
    },
    {
      figure: '  same loop, one await per event',
      measured: `${fmt(r.eventRate.awaitingEventsPerSecond)} (simulator at ${pct(r.eventRate.simEventsPerSecond / r.eventRate.awaitingEventsPerSecond)} of it)`,
      against: 'the floor of async protocol code resumed from the loop',
      meets: null,
    },
    {
      figure: `${STANDARD_SCENARIO} seeds/s, one core`,
      measured: `${fmt(r.seedThroughput.seedsPerSecond)} (${fmt(r.seedThroughput.operationsPerRun)} ops, ${fmt(r.seedThroughput.eventsPerRun)} events per run)`,
      against: `target ≥ ${TARGETS.seedsPerSecondMin}`,
      meets: r.seedThroughput.seedsPerSecond >= TARGETS.seedsPerSecondMin,
    },
    {
      figure: `${STANDARD_SCENARIO} seeds/s, sweep pool`,
      measured: `${fmt(r.poolThroughput.seedsPerSecond)} on ${r.poolThroughput.workers} workers`,
      against: `one core ${fmt(r.seedThroughput.seedsPerSecond)} (worker start-up included)`,
      meets: null,
    },
    {
      figure: 'simulated ms per wall ms',
      measured: `${fmt(r.seedThroughput.simulatedMsPerWallMs)}×`,
      against: `target ≥ ${fmt(TARGETS.simulatedPerWallMin)}×`,
      meets: r.seedThroughput.simulatedMsPerWallMs >= TARGETS.simulatedPerWallMin,
    },
    {
      figure: `mutants caught within ${r.mutants.seedBudget} seeds`,
      measured: `${r.mutants.caught}/${r.mutants.total}, median ${r.mutants.medianSeedsToCatch ?? '-'} seeds`,
      against: `all; median < ${TARGETS.medianSeedsToCatchBelow}`,
      meets: r.mutants.caught === r.mutants.total && (r.mutants.medianSeedsToCatch ?? Infinity) < TARGETS.medianSeedsToCatchBelow,
    },
  ];
  for (const m of r.mutants.mutants) {
    rows.push({
      figure: `  ${m.name}`,
      measured: m.caught ? `seed ${m.seedsToCatch}, ${fmt(m.wallMsToCatch ?? 0)} ms to catch, shrunk to ${m.shrunkOperations} ops` : 'not caught',
      against: `≤ ${r.mutants.seedBudget} seeds, ≤ ${TARGETS.shrunkOperationsMax} ops`,
      meets: m.caught && (m.shrunkOperations ?? Infinity) <= TARGETS.shrunkOperationsMax,
    });
  }
  rows.push(...stageRaceRows(r.stageRace));
  for (const p of r.postgres ?? []) {
    rows.push({
      figure: `PostgreSQL acquire/release cycles/s, ${p.connections} conn.`,
      measured: `${fmt(p.acquireReleasePerSecond)} (${pct(p.ratio)} of raw)`,
      against: `single-row UPDATE ${fmt(p.rawUpdatePerSecond)}/s; target ≥ ${pct(TARGETS.postgresRatioMin)}`,
      meets: p.ratio >= TARGETS.postgresRatioMin,
    });
    rows.push({
      figure: `  two plain updates per cycle, ${p.connections} conn.`,
      measured: `${fmt(p.twoUpdatesPerSecond)} (${pct(p.ceilingRatio)} of raw)`,
      against: 'the ceiling of two commands per cycle',
      meets: null,
    });
  }
  if (r.lockstepReplay !== null) {
    const memoryOps = r.seedThroughput.seedsPerSecond * r.seedThroughput.operationsPerRun;
    rows.push({
      figure: 'lockstep replay on PostgreSQL (ops/s)',
      measured: fmt(r.lockstepReplay.operationsPerSecond),
      against: `memory store ${fmt(memoryOps)} ops/s`,
      meets: null,
    });
  }
  if (r.interleavedReplay !== null && r.lockstepReplay !== null) {
    rows.push({
      figure: 'interleaved replay on PostgreSQL (ops/s)',
      measured: fmt(r.interleavedReplay.operationsPerSecond),
      against: `lockstep replay ${fmt(r.lockstepReplay.operationsPerSecond)} ops/s`,
      meets: null,
    });
  }
  if (r.race !== null && r.interleavedReplay !== null) {
    rows.push({
      figure: `race schedules/s (${r.race.kinds.join(', ')}: ${r.race.cases} cases)`,
      measured: `${fmt(r.race.schedulesPerSecond)} (${r.race.schedules} schedules, ${r.race.prunedBranches} branches skipped)`,
      against: `interleaved replay ${fmt(r.interleavedReplay.operationsPerSecond)} ops/s`,
      meets: null,
    });
  }
  const x = r.raceExhaust;
  if (x !== null) {
    rows.push({
      figure: 'race: every pair of kinds exhausted on postgres (s)',
      measured: `${fmt(x.seconds)} (${x.cases} cases, ${x.schedules} schedules, ${x.prunedBranches} branches skipped, exit ${String(x.exitCode)})`,
      against: `≤ ${TARGETS.raceExhaustSecondsMax} s, exhausted, exit 0`,
      meets: x.exhausted && x.exitCode === 0 && x.seconds <= TARGETS.raceExhaustSecondsMax,
    });
  }
  const m = r.sweepMemory;
  rows.push({
    figure: `heap over a ${m.samples[m.samples.length - 1]?.seeds ?? 0}-seed sweep (MB)`,
    measured: m.checkpoints.map((c) => `${fmt(c.heapUsedMb)} @${c.seeds}`).join(', ') + `; peak RSS ${fmt(m.peakRssMb)}`,
    against: `flat: end/first ≤ ${TARGETS.heapGrowthMax}× (${fmt(m.heapGrowth)}×${m.collected ? '' : ', without --expose-gc'})`,
    meets: m.heapGrowth <= TARGETS.heapGrowthMax && m.failures === 0,
  });
  for (const c of r.cliSweepMemory) {
    rows.push({
      figure: `peak RSS of sweep --workers 1 on ${c.adapter}, ${fmt(c.seeds[0])} → ${fmt(c.seeds[1])} seeds (MB)`,
      measured: `${fmt(c.peakRssMb[0])} → ${fmt(c.peakRssMb[1])} (${fmt(c.growth)}×; exit ${c.exitCodes.join(', ')})`,
      against: `flat: ≤ ${TARGETS.heapGrowthMax}×, and ≤ ${TARGETS.cliSweepRssMbMax} MB`,
      meets: c.growth <= TARGETS.heapGrowthMax && c.peakRssMb[1] <= TARGETS.cliSweepRssMbMax && c.exitCodes.every((e) => e === 0),
    });
  }
  const sh = r.shards;
  rows.push(
    {
      figure: 'seed-runs/s of one shard, every scenario',
      measured: `${fmt(sh.shardSeedRunsPerSecond)} (${sh.shardRuns} runs of shard 1/${sh.shards})`,
      against: `${STANDARD_SCENARIO} alone ${fmt(r.seedThroughput.seedsPerSecond)}/s on one core`,
      meets: null,
    },
    {
      figure: `merge of ${sh.shards} shards × ${fmt(sh.seedsPerShard)} seeds (ms)`,
      measured: `${fmt(sh.mergeMs)} (${fmt(sh.filesMb)} MB of shard files, ${fmt(sh.mergedSeedRuns)} seed-runs)`,
      against: 'read, check and combine; simulated shard files',
      meets: null,
    },
  );
  return rows;
}

/** Per store mutant: the command-level check's time to its first failure beside the sweep's. */
function stageRaceRows(races: ReadonlyArray<StageRace>): BenchRow[] {
  const rows: BenchRow[] = [{ figure: 'time to first failure, store mutants', measured: 'command-level check', against: 'sweep --scenario all --stop-at-first', meets: null }];
  for (const race of races) {
    const check = race.checkMs === null ? 'not caught' : `${fmt(race.checkMs)} ms, shrunk to ${race.checkSteps} steps${race.checkProfile === 'long' ? ' (--profile long)' : ''}`;
    const sweep = race.sweepRuns === 0 ? 'no workload reaches it' : race.sweepMs === null ? `not caught in ${race.sweepRuns} runs` : `${fmt(race.sweepMs)} ms (run ${race.sweepRuns}, ${race.sweepCatch})`;
    rows.push({ figure: `  ${race.name}`, measured: check, against: `${sweep}; check target < ${fmt(TARGETS.checkMsMax)} ms, ≤ ${TARGETS.checkStepsMax} steps`, meets: race.checkMs !== null && race.checkMs < TARGETS.checkMsMax && (race.checkSteps ?? Infinity) <= TARGETS.checkStepsMax });
  }
  return rows;
}

/** The table as text: figure, measured value, baseline or limit, verdict. */
export function renderTable(rows: ReadonlyArray<BenchRow>): string {
  const head = { figure: 'figure', measured: 'measured', against: 'baseline / limit', meets: null };
  const all = [head, ...rows];
  const wf = Math.max(...all.map((r) => r.figure.length));
  const wm = Math.max(...all.map((r) => r.measured.length));
  const verdict = (row: BenchRow | typeof head): string => (row === head ? '' : row.meets === null ? '' : row.meets ? 'ok' : 'MISS');
  return all.map((row) => `${row.figure.padEnd(wf)}  ${row.measured.padEnd(wm)}  ${verdict(row).padEnd(4)}  ${row.against}`).join('\n');
}
