// Workload knobs that widen what a plan asks of a store, and leave other plans as they were:
// `unitsMax` (requests for several units, 000 §93–§96) and `retryAfterTerminalPct` (idempotent
// requests that start again after a terminal failure, 000 §51).

import { describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { generatePlan, runScenario } from '../../sim/run.ts';

const opsOf = (scenario: string, seed: number) => generatePlan(loadScenario(scenario), seed).steps.flatMap((s) => ('op' in s ? [s.op] : []));

describe('workload knobs', () => {
  test('unitsMax: semaphore-capacity asks for one or two units, other scenarios for one', () => {
    const units = new Set(opsOf('semaphore-capacity', 1).map((op) => op.units));
    expect(units).toEqual(new Set([1, 2]));
    for (const op of opsOf('standard-mix', 1)) if (op.units !== undefined) expect(op.units).toBe(1);
  });

  test('retryAfterTerminalPct: some requests say so in their IdempotencyBegin, the rest do not', async () => {
    const ops = opsOf('idempotency-unknown-outcome', 1);
    expect(ops.some((op) => op.retryAfterTerminal === true)).toBe(true);
    expect(ops.some((op) => op.retryAfterTerminal === undefined)).toBe(true);
    const run = await runScenario({ scenario: loadScenario('idempotency-unknown-outcome'), seed: 1, store: { name: 'memory', factory: createMemoryStore } });
    const begins = run.history.filter((e) => e.type === 'invoke' && e.f === 'IdempotencyBegin').map((e) => (e.value as { retryAfterTerminal: boolean }).retryAfterTerminal);
    expect(new Set(begins)).toEqual(new Set([true, false]));
    expect(opsOf('standard-mix', 1).some((op) => op.retryAfterTerminal !== undefined)).toBe(false);
  });
});
