// seed 000 §160 and seed 001 §12–§13: a partition really drops messages; a lost reply makes the op `info` (unknown) and a new incarnation takes over.
import { describe, expect, it } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import type { OpEvent } from '../../model/history.ts';
import { parseScenario } from '../../scenarios/index.ts';
import { executePlan, generatePlan, type Plan, type PlanStep } from '../../sim/run.ts';

const store = { name: 'memory', factory: createMemoryStore };

const scenario = parseScenario(
  {
    name: 'net-probe',
    title: 'probe',
    sources: ['000 §160'],
    workload: { controllers: 2, scopes: 1, mix: { 'env-deploy': 1 }, horizonMs: 4_000, leaseTtlMs: 1_000, waitPct: 0, rpcTimeoutMs: 500 },
    faults: { profile: { networkDelayMsMin: 1, networkDelayMsMax: 3 } },
    invariants: ['one-owner-per-epoch', 'fencing-monotonic'],
    expect: 'pass',
    operations: 4,
  },
  'test',
);

function planWith(faults: ReadonlyArray<PlanStep>, ops: number): Plan {
  const base = generatePlan(scenario, 1);
  const opSteps = base.steps.filter((s) => s.kind === 'op').slice(0, ops).map((s, i) => ({ ...s, at: 100 + i * 1_500, node: 'c1' }));
  return { ...base, steps: [...faults, ...opSteps].sort((a, b) => a.at - b.at) };
}

const opsOf = (history: ReadonlyArray<{ type: string }>, process: string): OpEvent[] =>
  history.filter((e): e is OpEvent => (e as OpEvent).process === process && e.type !== 'fault' && e.type !== 'truth') as OpEvent[];

describe('network partitions', () => {
  it('drops every request across a partition: nothing c1 sends reaches the database', async () => {
    const partition: PlanStep = { kind: 'fault', at: 0, fault: { f: 'partition', at: 0, from: 'c1', to: 'db', oneWay: false, durationMs: 3_000 } };
    const result = await executePlan(planWith([partition], 1), { store });
    const c1 = opsOf(result.history, 'c1#1');
    expect(c1[0]?.type).toBe('invoke');
    expect(c1[1]?.type).toBe('info');
    expect(c1.filter((e) => e.type === 'ok')).toHaveLength(0);
    expect(result.history.some((e) => e.type === 'fault' && e.f === 'partition')).toBe(true);
  });

  it('without a partition the same request is answered', async () => {
    const result = await executePlan(planWith([], 1), { store });
    const c1 = opsOf(result.history, 'c1#1');
    expect(c1[1]?.type).toBe('ok');
  });
});

describe('lost replies', () => {
  it('makes the op info, retires the process and starts a new incarnation that continues', async () => {
    // One-way: requests reach the database, replies to c1 are lost.
    const lossy: PlanStep = { kind: 'fault', at: 0, fault: { f: 'partition', at: 0, from: 'db', to: 'c1', oneWay: true, durationMs: 1_000 } };
    const result = await executePlan(planWith([lossy], 2), { store });
    const first = opsOf(result.history, 'c1#1');
    expect(first.map((e) => e.type)).toEqual(['invoke', 'info']);
    // The request was executed: the database granted the lease the old incarnation never learned about.
    const restart = result.history.find((e) => e.type === 'fault' && e.f === 'restart');
    expect(restart?.type === 'fault' ? restart.value['process'] : undefined).toBe('c1#2');
    const second = opsOf(result.history, 'c1#2');
    expect(second.some((e) => e.type === 'ok')).toBe(true);
    expect(second.every((e) => e.index > (restart?.index ?? Infinity))).toBe(true);
  });
});
