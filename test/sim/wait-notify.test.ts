// seed 000 §86–§92 (§87: no busy polling): a queued waiter sleeps until the database notifies its scope, and takes the lease right after the holder releases it.
import { describe, expect, it } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import type { OpEvent } from '../../model/history.ts';
import { parseScenario } from '../../scenarios/index.ts';
import { executePlan, generatePlan, type Plan } from '../../sim/run.ts';

const store = { name: 'memory', factory: createMemoryStore };

const scenario = parseScenario(
  {
    name: 'notify-probe',
    title: 'probe',
    sources: ['000 §87'],
    workload: { controllers: 2, scopes: 1, mix: { 'env-deploy': 1 }, horizonMs: 4_000, leaseTtlMs: 3_000, waitPct: 100, workMsMin: 800, workMsMax: 800 },
    faults: { profile: { networkDelayMsMin: 1, networkDelayMsMax: 3 } },
    invariants: ['one-owner-per-epoch', 'lease-exclusive'],
    expect: 'pass',
    operations: 2,
  },
  'test',
);

function twoWaiters(): Plan {
  const base = generatePlan(scenario, 1);
  const ops = base.steps.filter((s) => s.kind === 'op');
  return { ...base, steps: ops.map((s, i) => ({ ...s, at: 100 + i * 50, node: `c${i + 1}` })) };
}

const calls = (history: ReadonlyArray<{ type: string }>, process: string, f: string): OpEvent[] =>
  history.filter((e): e is OpEvent => e.type === 'invoke' && (e as OpEvent).process === process && (e as OpEvent).f === f) as OpEvent[];

describe('waiting on a busy scope', () => {
  it('asks once, sleeps, and is woken by the release instead of polling', async () => {
    const result = await executePlan(twoWaiters(), { store });
    expect(result.valid).toBe(true);
    const acquires = calls(result.history, 'c2#1', 'Acquire');
    // One answered Busy (and listened), one after the notification; no 100 ms polls in between.
    expect(acquires).toHaveLength(2);
    const release = calls(result.history, 'c1#1', 'Release')[0]!;
    const wakeDelayMs = acquires[1]!.time - release.time;
    expect(wakeDelayMs).toBeGreaterThan(0);
    // Release request, its commit, the notification: three network hops of at most 3 ms.
    expect(wakeDelayMs).toBeLessThanOrEqual(9);
  });
});
