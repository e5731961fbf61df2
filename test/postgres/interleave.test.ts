// Controlled interleaving on PostgreSQL (adapters/postgres/interleave/, sim/database-node.ts): a
// session per simulated process, store calls that meet at the database run at once, and their
// statements reach the server in a seeded order. The same seed gives the same schedule and the
// same trace hash; store time passes inside a batch where the chooser says; the real store
// passes; each SQL race mutant that interleaving can expose is caught on its scenario, while the
// same seeds run serially pass (the bug is invisible without concurrency); a failure replays
// with the same trace hash.

import { describe, expect, test } from 'vitest';
import type { InterleaveStrategy } from '../../adapters/interleaving.ts';
import type { StoreOptions } from '../../adapters/port.ts';
import { postgresInterleaving } from '../../adapters/postgres/interleave/index.ts';
import { mutantStoreOptions, POSTGRES_MUTANTS } from '../../mutants/sql/index.ts';
import { createPostgresStore } from '../../adapters/postgres/store.ts';
import type { HistoryEvent } from '../../model/history.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { failureOf, replayFailure } from '../../campaign/failure-file.ts';
import { runScenario, type SimRunResult } from '../../sim/run.ts';
import { usePostgres } from './fixture.ts';

const pg = usePostgres();

function interleaving(strategy: InterleaveStrategy, mutant?: string) {
  const found = POSTGRES_MUTANTS.find((m) => m.name === mutant);
  return postgresInterleaving(strategy, pg.server().connectionString, () => pg.freshSchema(), found === undefined ? {} : mutantStoreOptions(found));
}

async function interleaved(scenario: string, seed: number, strategy: InterleaveStrategy = 'random', mutant?: string): Promise<SimRunResult> {
  const interleave = interleaving(strategy, mutant);
  return runScenario({ scenario: loadScenario(scenario), seed, store: { name: 'postgres', factory: () => Promise.reject(new Error('unused')) }, interleave });
}

async function serial(scenario: string, seed: number, mutant: string): Promise<SimRunResult> {
  const found = POSTGRES_MUTANTS.find((m) => m.name === mutant)!;
  const factory = (options: StoreOptions) => createPostgresStore({ ...options, connectionString: pg.server().connectionString, schema: pg.freshSchema(), ...mutantStoreOptions(found) });
  return runScenario({ scenario: loadScenario(scenario), seed, store: { name: `postgres-mutant:${mutant}`, factory } });
}

function batches(history: ReadonlyArray<HistoryEvent>): Array<{ calls: string[]; schedule: string[] }> {
  return history.filter((e) => e.type === 'truth' && e.f === 'interleaving').map((e) => e.value as { calls: string[]; schedule: string[] });
}

describe('controlled interleaving on PostgreSQL', () => {
  test.each(['random', 'pct'] as const)('the real store passes sql-contention under %s, with calls really run at once, and the same seed gives the same trace hash', async (strategy) => {
    const first = await interleaved('sql-contention', 1, strategy);
    expect(first.violations).toEqual([]);
    expect(first.valid).toBe(true);
    const run = batches(first.history);
    // Not vacuous: many batches held several calls, and their statements alternated between sessions.
    expect(run.filter((b) => b.calls.length > 1).length).toBeGreaterThan(20);
    expect(run.some((b) => b.schedule.some((s, i) => i > 1 && s !== b.schedule[i - 1] && b.schedule.slice(0, i - 1).includes(s)))).toBe(true);
    // The shadow model followed the store through every batch to the end.
    expect(first.shadow?.stoppedBecause).toBeNull();
    expect(first.shadow?.compared).toBeGreaterThan(100);
    // Store time passed inside batches: the chooser moved the clock, in some batch between statements.
    expect(run.filter((b) => b.schedule.includes('@clock')).length).toBeGreaterThan(10);
    expect(first.history.some((e) => e.type === 'truth' && e.f === 'interleaving' && (e.value as { schedule: string[] }).schedule.indexOf('@clock') > 0)).toBe(true);
    const second = await interleaved('sql-contention', 1, strategy);
    expect(second.traceHash).toBe(first.traceHash);
  }, 60_000);

  test('the real store passes sql-contention under random-functions: sessions step inside its functions, and the shadow model follows every batch at the times the calls decided with', async () => {
    const result = await interleaved('sql-contention', 1, 'random-functions');
    expect(result.violations).toEqual([]);
    const run = batches(result.history);
    // Steps past points inside functions, and in some batch two sessions inside functions in turn.
    expect(run.some((b) => b.schedule.some((s) => /^c\d+@\d+$/.test(s)))).toBe(true);
    expect(run.some((b) => b.schedule.some((s, i) => i > 0 && s.includes('@') && b.schedule[i - 1]!.includes('@') && s.split('@')[0] !== b.schedule[i - 1]!.split('@')[0] && s !== '@clock' && b.schedule[i - 1] !== '@clock'))).toBe(true);
    const instrumented = result.history.find((e) => e.type === 'truth' && e.f === 'instrumented')?.value as { functions: Array<{ signature: string; points: number }> } | undefined;
    expect(instrumented?.functions.map((f) => f.signature.split('(')[0]).sort()).toEqual(['testbed_acquire', 'testbed_guard', 'testbed_mutate', 'testbed_release', 'testbed_renew']);
    // Store time moved on while calls were inside functions, and each call was still explained.
    expect(result.shadow?.stoppedBecause).toBeNull();
    expect(result.shadow?.compared).toBeGreaterThan(100);
    const again = await interleaved('sql-contention', 1, 'random-functions');
    expect(again.traceHash).toBe(result.traceHash);
  }, 120_000);

  test('standard-mix passes interleaved', async () => {
    for (const seed of [1, 2]) {
      const result = await interleaved('standard-mix', seed);
      expect(result.violations, `seed ${seed}`).toEqual([]);
      expect(result.valid).toBe(true);
    }
  }, 60_000);

  test('free-running: the real store passes, and calls run at once unheld (no schedule recorded)', async () => {
    const result = await interleaved('sql-contention', 1, 'free');
    expect(result.violations).toEqual([]);
    const run = batches(result.history);
    expect(run.filter((b) => b.calls.length > 1).length).toBeGreaterThan(20);
    expect(run.every((b) => b.schedule.length === 0)).toBe(true);
  }, 60_000);

  const exposed = POSTGRES_MUTANTS.filter((m) => m.caughtBy.includes('interleave'));

  test.each(exposed.map((m) => m.name))('the SQL race mutant %s is caught interleaved, its seed passes serially, and the failure replays exactly', async (name) => {
    const mutant = POSTGRES_MUTANTS.find((m) => m.name === name)!;
    const scenario = mutant.scenarios[0]!;
    const strategy = mutant.strategy ?? 'random';
    let failing: SimRunResult | null = null;
    for (let seed = 1; seed <= 12 && failing === null; seed++) {
      const result = await interleaved(scenario, seed, strategy, name);
      if (result.valid === false) failing = result;
    }
    expect(failing, `${name} not caught in 12 seeds`).not.toBeNull();
    const caught = failing!;
    // Serially the very same plan decides exactly as the real store: no violation.
    const alone = await serial(scenario, caught.seed, name);
    expect(alone.violations).toEqual([]);
    // The failure file's plan replays, interleaved the same way, to the same trace hash.
    // A race inside one function: the same seed with statement-level interleaving passes.
    if (strategy !== 'random') expect((await interleaved(scenario, caught.seed, 'random', name)).violations).toEqual([]);
    const replayed = await replayFailure(failureOf(caught.plan, caught, { interleave: strategy }), { name: `postgres-mutant:${name}`, factory: () => Promise.reject(new Error('unused')) }, undefined, interleaving(strategy, name));
    expect(replayed.traceHash).toBe(caught.traceHash);
    expect(replayed.valid).toBe(false);
  }, 120_000);
});
