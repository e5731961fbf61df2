// Controlled interleaving does not depend on the machine (docs/ARCHITECTURE.md "Controlled
// interleaving"): with two busy loops keeping both cores saturated, an interleaved failure of an
// SQL race mutant gives the same trace hash when run again and when replayed from its failure
// file. Every decision of the schedule is read from the server's own state (statement answered,
// lock wait in pg_locks), never from how long something took.

import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { InterleaveStrategy } from '../../adapters/interleaving.ts';
import { postgresInterleaving } from '../../adapters/postgres/interleave/index.ts';
import { mutantStoreOptions, POSTGRES_MUTANTS } from '../../mutants/sql/index.ts';
import { failureOf, replayFailure } from '../../campaign/failure-file.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';
import { usePostgres } from './fixture.ts';

const pg = usePostgres();
const MUTANT = 'token-from-unlocked-read';
const busy: ChildProcess[] = [];

beforeAll(() => {
  for (let i = 0; i < 2; i++) busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
});
afterAll(() => {
  for (const child of busy) child.kill('SIGKILL');
});

function interleaving(strategy: InterleaveStrategy) {
  const found = POSTGRES_MUTANTS.find((m) => m.name === MUTANT)!;
  return postgresInterleaving(strategy, pg.server().connectionString, () => pg.freshSchema(), mutantStoreOptions(found));
}

test('with both cores saturated, an interleaved failure runs again and replays with the same trace hash', async () => {
  expect(busy.every((child) => child.exitCode === null && child.pid !== undefined)).toBe(true);
  const scenario = loadScenario('sql-contention');
  const store = { name: `postgres-mutant:${MUTANT}`, factory: () => Promise.reject(new Error('unused')) };
  let first = await runScenario({ scenario, seed: 1, store, interleave: interleaving('random') });
  for (let seed = 2; seed <= 12 && first.valid !== false; seed++) first = await runScenario({ scenario, seed, store, interleave: interleaving('random') });
  expect(first.valid, `${MUTANT} not caught in 12 seeds`).toBe(false);
  const again = await runScenario({ scenario, seed: first.seed, store, interleave: interleaving('random') });
  expect(again.traceHash).toBe(first.traceHash);
  const replayed = await replayFailure(failureOf(first.plan, first, { interleave: 'random' }), store, undefined, interleaving('random'));
  expect(replayed.traceHash).toBe(first.traceHash);
  expect(replayed.valid).toBe(false);
}, 300_000);
