// docs/ARCHITECTURE.md "Performance targets" (measured in bench/): the quick benchmark run produces every pure figure in the report's shape; no timing is asserted here.
import { describe, expect, it } from 'vitest';
import { renderTable, runBench } from '../../bench/suite.ts';
import { listScenarios } from '../../scenarios/index.ts';

const positive = expect.any(Number);

describe('bench --quick (without PostgreSQL)', () => {
  it('reports every pure figure, each row beside its baseline or limit', async () => {
    const report = await runBench({ quick: true, postgres: false });
    const json = JSON.parse(JSON.stringify(report)) as typeof report;
    expect(json).toMatchObject({
      version: 1,
      quick: true,
      machine: { node: expect.any(String), cpus: positive },
      eventRate: { simEventsPerSecond: positive, bareEventsPerSecond: positive, ratio: positive, awaitingEventsPerSecond: positive, eventsPerRun: positive },
      seedThroughput: { seedsPerSecond: positive, simulatedMsPerWallMs: positive, operationsPerRun: positive },
      poolThroughput: { workers: positive, seedsPerSecond: positive, failures: 0 },
      mutants: { seedBudget: positive, total: positive, caught: expect.any(Number) },
      postgres: null,
      lockstepReplay: null,
      interleavedReplay: null,
      race: null,
      sweepMemory: { peakRssMb: positive, peakHeapUsedMb: positive, heapGrowth: positive, failures: 0 },
    });
    expect(json.eventRate.samples.length).toBeGreaterThan(0);
    expect(json.seedThroughput.samples.length).toBeGreaterThan(0);
    for (const m of json.mutants.mutants) expect(m).toMatchObject({ name: expect.any(String), caught: expect.any(Boolean), wallMsTotal: positive });
    expect(json.sweepMemory.checkpoints).toHaveLength(3);
    // The sweep CLI in a child process, memory store and a store module: both sweeps ran to exit 0.
    expect(json.cliSweepMemory.map((c) => c.adapter)).toEqual(['memory', 'module']);
    for (const c of json.cliSweepMemory) expect(c).toMatchObject({ seeds: [100, 400], peakRssMb: [positive, positive], growth: positive, exitCodes: [0, 0] });
    expect(json.sweepMemory.checkpoints.map((c) => c.seeds)).toEqual([...json.sweepMemory.checkpoints.map((c) => c.seeds)].sort((a, b) => a - b));
    for (const row of json.rows) expect(row).toEqual({ figure: expect.any(String), measured: expect.any(String), against: expect.any(String), meets: row.meets === null ? null : expect.any(Boolean) });
    // The quick run's mutants include one store mutant: the check beside the sweep, both catching it.
    expect(json.stageRace.length).toBeGreaterThan(0);
    for (const race of json.stageRace) expect(race).toMatchObject({ name: expect.any(String), checkMs: expect.any(Number), checkSteps: positive, sweepMs: expect.any(Number), sweepRuns: positive });
    // Merging simulated shards accounts for every seed of every shard.
    expect(json.shards).toMatchObject({ shards: 8, seedsPerShard: 10_000, shardSeedRunsPerSecond: positive, shardRuns: positive, filesMb: positive, mergeMs: positive });
    expect(json.shards.mergedSeedRuns).toBe(8 * 10_000 * listScenarios().length);
    expect(json.rows.length).toBe(6 + json.mutants.total + 1 + 1 + 2 + json.stageRace.length + 2);
    const table = renderTable(json.rows);
    expect(table.split('\n')).toHaveLength(json.rows.length + 1);
  });
});
