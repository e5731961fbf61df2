// docs/ARCHITECTURE.md "Shrinking and replay": a plan is plain JSON and any sub-list of its steps runs deterministically to a well-formed, judgeable history.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import createMemoryStore from '../../adapters/memory.ts';
import { pairOperations } from '../../model/checkers/operations.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { executePlan, generatePlan } from '../../sim/run.ts';
import { faultOptions } from '../../faults/knobs.ts';

const store = { name: 'memory', factory: createMemoryStore };

describe('plans', () => {
  it('are JSON-serializable and carry the derived fault options', () => {
    const plan = generatePlan(loadScenario('swarm-mix'), 9);
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
    expect(plan.swarm).toBe(true);
    expect(plan.steps.filter((s) => s.kind === 'op')).toHaveLength(60);
    expect(plan.steps.every((s, i) => i === 0 || plan.steps[i - 1]!.at <= s.at)).toBe(true);
  });

  it('swarm mode lets the seed pick the fault mix', () => {
    const mixes = new Set([1, 2, 3, 4, 5, 6].map((seed) => JSON.stringify(generatePlan(loadScenario('swarm-mix'), seed).faults)));
    expect(mixes.size).toBeGreaterThan(1);
  });

  it('rejects impossible fault options with a clear message', () => {
    expect(() => faultOptions({ messageLossPct: 120 })).toThrow(/messageLossPct must be at most 100/);
    expect(() => faultOptions({ pauseMsMax: -1 })).toThrow(/non-negative integer/);
    expect(() => faultOptions({ networkDelayMsMin: 9, networkDelayMsMax: 2 })).toThrow(/networkDelayMsMax/);
  });

  it('any sub-list of steps runs deterministically to a well-formed history (property)', async () => {
    const plan = generatePlan(loadScenario('standard-mix'), 4);
    await fc.assert(
      fc.asyncProperty(fc.subarray([...plan.steps.keys()], { minLength: 0, maxLength: Math.min(60, plan.steps.length) }), async (keep) => {
        const sub = { ...plan, steps: keep.map((i) => plan.steps[i]!) };
        const a = await executePlan(sub, { store });
        const b = await executePlan(JSON.parse(JSON.stringify(sub)), { store });
        expect(b.traceHash).toBe(a.traceHash);
        expect(() => pairOperations(a.history)).not.toThrow();
        expect(a.valid).not.toBe('unknown');
      }),
      { numRuns: 25, seed: 20_261_129 },
    );
  });
});
