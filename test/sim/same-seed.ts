// Determinism as the tests check it (docs/ARCHITECTURE.md "Time and determinism"): a scenario run
// twice on one seed gives one trace hash, the next seed gives another, and a separate process
// gives the same hash as this one.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import type { Scenario } from '../../scenarios/index.ts';
import { runScenario, type SimRunResult } from '../../sim/run.ts';

const store = { name: 'memory', factory: createMemoryStore };
const script = fileURLToPath(new URL('./fixtures/trace-hash.mts', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Runs `scenario` on the memory store twice on `seed` and once on `seed + 1`; returns the first run. */
export async function expectSameHashForSameSeed(scenario: Scenario, seed: number): Promise<SimRunResult> {
  const a = await runScenario({ scenario, seed, store });
  const b = await runScenario({ scenario, seed, store });
  const c = await runScenario({ scenario, seed: seed + 1, store });
  expect(b.traceHash).toBe(a.traceHash);
  expect(c.traceHash).not.toBe(a.traceHash);
  return a;
}

/** `<trace hash> <events>` of the scenario's run on the memory store, taken in a child process. */
export function hashInChildProcess(scenario: string, seed: number): string {
  return execFileSync('npx', ['tsx', script, scenario, String(seed)], { cwd: root, encoding: 'utf8' }).trim();
}
