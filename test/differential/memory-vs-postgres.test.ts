// seed 000 §315 "Postgres implementations preserve the same semantic model": the simulator drives
// the PostgreSQL store in lockstep with virtual time, and every operation result equals the memory
// store's for the same scenario and seed. DIFFERENTIAL_SEEDS raises the seed count (npm run differential).

import { describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { differential } from '../../model/checkers/index.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';
import { usePostgres } from '../postgres/fixture.ts';

const SEEDS = Number(process.env.DIFFERENTIAL_SEEDS ?? 6);
const SCENARIOS = ['stale-holder', 'semaphore-capacity', 'idempotency-different-request', 'restore', 'fairness-starvation'];

describe('memory and PostgreSQL give identical operation results', () => {
  const postgres = usePostgres();

  for (const name of SCENARIOS) {
    test(`${name}: ${SEEDS} seeds, outcome for outcome`, async () => {
      const scenario = loadScenario(name);
      for (let seed = 1; seed <= SEEDS; seed++) {
        const memory = await runScenario({ scenario, seed, store: { name: 'memory', factory: createMemoryStore } });
        const real = await runScenario({
          scenario,
          seed,
          store: { name: 'postgres', factory: (options) => postgres.store({ ...options, schema: postgres.freshSchema() }) },
        });
        const verdict = differential(memory.history, real.history);
        expect(verdict.violations, `${name} seed ${seed}`).toEqual([]);
        expect(real.valid, `${name} seed ${seed}`).toBe(memory.valid);
        // Same plan, same outcomes, same history: the trace hashes agree exactly.
        expect(real.traceHash, `${name} seed ${seed}`).toBe(memory.traceHash);
      }
    }, 300_000);
  }
});
