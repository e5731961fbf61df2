// docs/ARCHITECTURE.md "Shrinking and replay": shrinkPlan keeps the same invariant's violation, and the rendering reads as numbered steps with the violation and the replay line.
import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../model/history.ts';
import { NO_FAULTS } from '../../faults/knobs.ts';
import type { Plan, PlanStep } from '../../sim/plan.ts';
import type { RunResult } from '../../sim/run-result.ts';
import { counterexampleOf, countOperations, renderCounterexample } from '../../campaign/counterexample.ts';
import { shrinkPlan } from '../../campaign/shrink.ts';

function opStep(id: string, at: number): PlanStep {
  return {
    kind: 'op',
    at,
    node: `c${(at % 3) + 1}`,
    op: { id, workload: 'env-deploy', tenant: 't1', scope: 'env:prod', aggregate: 'deploy', operation: 'rollout', retrySafety: 'InspectBeforeRetry', fencing: false, wait: false, priority: 0, workMs: 100, ttlMs: 1_000 },
  };
}

function planOf(steps: ReadonlyArray<PlanStep>): Plan {
  return {
    version: 1,
    scenario: 'synthetic',
    seed: 42,
    faults: NO_FAULTS,
    swarm: false,
    recoveryEpoch: true,
    controllers: 3,
    rpcTimeoutMs: 1_000,
    waitTimeoutMs: 5_000,
    horizonMs: 10_000,
    livenessBoundMs: 5_000,
    protectedScopes: [],
    capacities: [],
    invariants: ['one-owner-per-epoch', 'capacity'],
    steps,
  };
}

const idOf = (step: PlanStep): string => (step.kind === 'op' ? step.op.id : 'fault');

/** A fake simulator: each op step is one Acquire; the run violates `invariant` when every culprit ran. */
function fakeExecutor(culprits: ReadonlyArray<string>, invariant = 'one-owner-per-epoch') {
  let runs = 0;
  const execute = async (plan: Plan): Promise<RunResult> => {
    runs += 1;
    const history: HistoryEvent[] = [];
    for (const step of plan.steps) {
      if (step.kind !== 'op') continue;
      const process = step.node;
      history.push({ index: history.length, time: step.at, process, type: 'invoke', f: 'Acquire', value: { kind: 'Acquire', scope: step.op.scope, holder: step.op.id, ttlMs: step.op.ttlMs } });
      history.push({ index: history.length, time: step.at + 1, process, type: 'ok', f: 'Acquire', value: { kind: 'Acquired', lease: { scope: step.op.scope, holder: step.op.id, token: 1, acquiredAt: step.at, expiresAt: step.at + step.op.ttlMs } } });
    }
    const ids = new Set(plan.steps.map(idOf));
    const failing = culprits.every((id) => ids.has(id));
    const violations = failing ? [{ invariant, message: `token 1 has two holders: ${culprits.join(' and ')}`, events: [0, 2] }] : [];
    return {
      scenario: plan.scenario,
      seed: plan.seed,
      adapter: 'mutant:synthetic',
      faults: 'sim',
      traceHash: '0'.repeat(64),
      events: history.length,
      operations: history.length / 2,
      valid: !failing,
      violations,
      replay: `npx testbed run --scenario ${plan.scenario} --seed ${plan.seed} --adapter mutant:synthetic`,
      simulatedMs: 10_000,
      history,
    };
  };
  return { execute, runs: () => runs };
}

const steps = Array.from({ length: 40 }, (_, i) => opStep(`op${i}`, i * 100));

describe('shrinkPlan', () => {
  it('keeps exactly the steps that produce the violation, in their order', async () => {
    const executor = fakeExecutor(['op31', 'op7']);
    const shrunk = await shrinkPlan(planOf(steps), executor.execute, 'one-owner-per-epoch');
    expect(shrunk.plan.steps.map(idOf)).toEqual(['op7', 'op31']);
    expect(shrunk.originalSteps).toBe(40);
    expect(shrunk.result.violations[0]?.invariant).toBe('one-owner-per-epoch');
    expect(shrunk.runs).toBe(executor.runs());
    expect(countOperations(shrunk.result.history)).toBe(2);
  });

  it('shrinks against the same invariant only: another invariant’s violation does not count', async () => {
    const executor = fakeExecutor(['op3'], 'capacity');
    await expect(shrinkPlan(planOf(steps), executor.execute, 'one-owner-per-epoch')).rejects.toMatchObject({ name: 'NotReproducedError', plan: 'whole', invariant: 'one-owner-per-epoch' });
  });

  it('honours the extra requirement and treats an executor failure as not failing', async () => {
    const executor = fakeExecutor(['op5']);
    const shrunk = await shrinkPlan(
      planOf(steps),
      async (plan) => {
        if (plan.steps.length === 1) throw new Error('the simulator rejects a one-step plan');
        return executor.execute(plan);
      },
      'one-owner-per-epoch',
      // For instance "the correct implementation passes this sub-plan": here, op6 must stay too.
      { alsoRequire: async (plan) => plan.steps.some((step) => idOf(step) === 'op6') },
    );
    expect(shrunk.plan.steps.map(idOf)).toEqual(['op5', 'op6']);
  });

  it('stays within its run budget', async () => {
    const executor = fakeExecutor(['op1', 'op17', 'op33']);
    const shrunk = await shrinkPlan(planOf(steps), executor.execute, 'one-owner-per-epoch', { maxRuns: 5 });
    expect(executor.runs()).toBeLessThanOrEqual(6);
    expect(shrunk.exhausted).toBe(true);
    expect(shrunk.result.violations).not.toHaveLength(0);
  });
});

describe('renderCounterexample', () => {
  it('lists numbered operations with time, process, operation and result, then the violation and the replay', async () => {
    const executor = fakeExecutor(['op2', 'op4']);
    const shrunk = await shrinkPlan(planOf(steps), executor.execute, 'one-owner-per-epoch');
    const text = renderCounterexample(shrunk.result, { invariant: 'one-owner-per-epoch', originalSteps: 40, replays: ['npx testbed replay out/failure.json'] });
    const lines = text.split('\n');
    expect(lines[0]).toBe('counterexample: synthetic seed 42 on mutant:synthetic (2 operations, 2 calls, shrunk from 40 plan steps)');
    expect(lines[1]).toMatch(/^1 {2}t= {3}200ms {2}c3 +Acquire scope=env:prod holder=op2 ttlMs=1000 {2}→ {2}ok Acquired lease=\{"scope":"env:prod","holder":"op2","token":1,"acquiredAt":200,"expiresAt":1200\} @201ms$/);
    expect(lines[2]).toMatch(/^2 {2}t= {3}400ms {2}c2 +Acquire .*holder=op4/);
    expect(lines[3]).toBe('violation [one-owner-per-epoch]: token 1 has two holders: op2 and op4 (events 0, 2)');
    expect(lines[4]).toBe('replay: npx testbed run --scenario synthetic --seed 42 --adapter mutant:synthetic');
    expect(lines[5]).toBe('replay: npx testbed replay out/failure.json');
  });

  it('shows an operation without a reply as such, and faults and ground truth between operations', () => {
    const history: HistoryEvent[] = [
      { index: 0, time: 0, process: 'c1', type: 'invoke', f: 'effect', value: { intentId: 'i1', attempt: 1 } },
      { index: 1, time: 5, process: 'nemesis', type: 'fault', f: 'provider-timeout', value: { intentId: 'i1' } },
      { index: 2, time: 6, process: 'provider', type: 'truth', f: 'effect-applied', value: { intentId: 'i1' } },
      { index: 3, time: 9, process: 'c1', type: 'info', f: 'effect', value: { error: 'timeout' } },
      { index: 4, time: 10, process: 'c2', type: 'invoke', f: 'effect', value: { intentId: 'i1', attempt: 2 } },
    ];
    const result = { scenario: 's', seed: 1, adapter: 'memory', faults: 'sim', traceHash: '', events: 5, operations: 1, valid: false, violations: [], replay: 'r', simulatedMs: 10, history } as const;
    const lines = renderCounterexample(result, { invariant: 'no-blind-retry' }).split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(/^1 .*c1 +effect intentId=i1 attempt=1 {2}→ {2}info error=timeout @9ms$/);
    expect(lines[2]).toMatch(/^! .*nemesis +provider-timeout intentId=i1$/);
    expect(lines[3]).toMatch(/^= .*provider +effect-applied intentId=i1$/);
    expect(lines[4]).toMatch(/^2 .*c2 +effect intentId=i1 attempt=2 {2}→ {2}\(no reply\)$/);
  });
});

describe('renderCounterexample marks', () => {
  const history: HistoryEvent[] = [
    { index: 0, time: 100, process: 'c1', type: 'invoke', f: 'Acquire', value: { kind: 'Acquire', scope: 's', holder: 'c1', ttlMs: 1000 } },
    { index: 1, time: 103, process: 'c1', type: 'ok', f: 'Acquire', value: { kind: 'Acquired', lease: { scope: 's', holder: 'c1', token: 1, acquiredAt: 101, expiresAt: 1101 } } },
    { index: 2, time: 200, process: 'c1', type: 'invoke', f: 'effect', value: { intentId: 'i1', token: 1 } },
    { index: 3, time: 210, process: 'c1', type: 'ok', f: 'effect', value: { applied: true } },
    { index: 4, time: 300, process: 'nemesis', type: 'fault', f: 'pause', value: { node: 'c1' } },
    { index: 5, time: 500, process: 'c2', type: 'invoke', f: 'Acquire', value: { kind: 'Acquire', scope: 's', holder: 'c2', ttlMs: 1000 } },
    { index: 6, time: 505, process: 'c2', type: 'ok', f: 'Acquire', value: { kind: 'Acquired', lease: { scope: 's', holder: 'c2', token: 1, acquiredAt: 502, expiresAt: 1502 } } },
    { index: 7, time: 600, process: 'c3', type: 'invoke', f: 'Release', value: { kind: 'Release', scope: 's', holder: 'c3', token: 1 } },
  ];
  const violations = [{ invariant: 'synthetic-rule', message: 'token 1 twice', events: [1, 6] }];
  const result = { scenario: 's', seed: 1, adapter: 'memory', faults: 'sim', traceHash: '', events: history.length, operations: 3, valid: false, violations, replay: 'r', simulatedMs: 700, history } as const;

  it('marks the one step the first violation names: the row of the latest event it cites', () => {
    const lines = renderCounterexample(result, { invariant: 'synthetic-rule' }).split('\n');
    expect(lines.filter((line) => line.includes('◀'))).toEqual([expect.stringMatching(/^3 {2}t= {3}500ms {2}c2 +Acquire .* @505ms {2}◀ failing step: synthetic-rule$/)]);
  });

  it('shows the store time each store call ran at, a range where store time passed, and - for a call that never reached the store', () => {
    const lines = renderCounterexample({ ...result, storeTimes: { 0: 101, 5: [502, 504] } }, { invariant: 'synthetic-rule' }).split('\n');
    expect(lines[1]).toMatch(/^1 {2}t= {3}100ms {2}store {5}101ms {2}c1 +Acquire /);
    // Not a store call: the column stays empty.
    expect(lines[2]).toMatch(/^2 {2}t= {3}200ms {19}c1 +effect /);
    expect(lines[3]).toMatch(/^! {2}t= {3}300ms {19}nemesis +pause/);
    expect(lines[4]).toMatch(/^3 {2}t= {3}500ms {2}store 502–504ms {2}c2 +Acquire .*◀ failing step: synthetic-rule$/);
    expect(lines[5]).toMatch(/^4 {2}t= {3}600ms {2}store {9}- {2}c3 +Release .*\(no reply\)$/);
  });
});

describe('renderCounterexample folding', () => {
  it('folds a run of identical polls with identical answers into one operation', () => {
    const poll = (index: number, time: number): HistoryEvent[] => [
      { index, time, process: 'c2', type: 'invoke', f: 'Acquire', value: { kind: 'Acquire', scope: 's', holder: 'c2', ttlMs: 100 } },
      { index: index + 1, time: time + 2, process: 'c2', type: 'ok', f: 'Acquire', value: { kind: 'Busy', holder: 'c1', token: 1, expiresAt: 900 } },
    ];
    const history = [...poll(0, 100), ...poll(2, 200), ...poll(4, 300), { index: 6, time: 350, process: 'nemesis', type: 'fault', f: 'pause', value: { node: 'c1' } } as const, ...poll(7, 400)];
    const result = { scenario: 's', seed: 1, adapter: 'memory', faults: 'sim', traceHash: '', events: history.length, operations: 4, valid: true, violations: [], replay: 'r', simulatedMs: 500, history } as const;
    const lines = renderCounterexample(result, { invariant: 'one-owner-per-epoch' }).split('\n');
    expect(lines[0]).toContain('(2 operations, 4 calls)');
    expect(countOperations(history)).toBe(2);
    expect(lines[1]).toMatch(/^1 {2}t= {3}100ms {2}c2 +Acquire scope=s holder=c2 ttlMs=100 {2}→ {2}ok Busy holder=c1 token=1 expiresAt=900 \(×3 until @302ms\)$/);
    expect(lines[2]).toMatch(/^! .*pause node=c1$/);
    expect(lines[3]).toMatch(/^2 {2}t= {3}400ms .* @402ms$/);
  });
});

describe('renderCounterexample folding across processes', () => {
  it("folds a process's polls answered as before though another process's calls come between, until a fault", () => {
    const call = (index: number, time: number, process: string, answer: string): HistoryEvent[] => [
      { index, time, process, type: 'invoke', f: 'ListJobs', value: { kind: 'ListJobs' } },
      { index: index + 1, time: time + 2, process, type: 'ok', f: 'ListJobs', value: { kind: 'JobList', jobs: [answer] } },
    ];
    const history = [
      ...call(0, 100, 'lead', 'a'),
      ...call(2, 150, 'other', 'x'),
      ...call(4, 200, 'lead', 'a'),
      ...call(6, 300, 'lead', 'b'),
      ...call(8, 400, 'lead', 'b'),
      { index: 10, time: 450, process: 'nemesis', type: 'fault', f: 'pause', value: { node: 'c1' } } as const,
      ...call(11, 500, 'lead', 'b'),
    ];
    // lead: a ×2 (across other's call), b ×2, then b again after the pause; other once.
    expect(countOperations(history)).toBe(4);
  });
});

describe('counterexampleOf', () => {
  const acquired = (index: number, process: string, holder: string, token: number): HistoryEvent[] => [
    { index, time: index * 10, process, type: 'invoke', f: 'Acquire', value: { kind: 'Acquire', scope: 's', holder, ttlMs: 100 } },
    { index: index + 1, time: index * 10 + 1, process, type: 'ok', f: 'Acquire', value: { kind: 'Acquired', lease: { scope: 's', holder, token, acquiredAt: index * 10, expiresAt: index * 10 + 100 } } },
  ];
  const history = [...acquired(0, 'c1', 'a', 1), ...acquired(2, 'c2', 'b', 1), ...acquired(4, 'c3', 'c', 2), ...acquired(6, 'c1', 'd', 3)];
  const result = { scenario: 's', seed: 1, adapter: 'mutant:x', faults: 'sim', traceHash: '', events: history.length, operations: 4, valid: false, replay: 'r', simulatedMs: 80, history } as const;

  it('cuts the history after the last event the violation cites, and re-checks the prefix', () => {
    const violations = [{ invariant: 'one-owner-per-epoch', message: 'token 1 has two holders', events: [1, 3] }];
    const counterexample = counterexampleOf({ ...result, violations }, 'one-owner-per-epoch');
    expect(counterexample.history).toEqual(history.slice(0, 4));
    expect(counterexample.omittedEvents).toBe(4);
    expect(counterexample.violations).toHaveLength(1);
    expect(countOperations(counterexample.history)).toBe(2);
  });

  it('keeps the whole history when the prefix no longer shows the violation, and for liveness', () => {
    // A citation that stops before the second grant completes: the prefix is not a counterexample.
    const early = [{ invariant: 'one-owner-per-epoch', message: 'cited too early', events: [1, 2] }];
    expect(counterexampleOf({ ...result, violations: early }, 'one-owner-per-epoch').history).toBe(history);
    const liveness = [{ invariant: 'liveness', message: 'waiter starved', events: [1] }];
    expect(counterexampleOf({ ...result, violations: liveness }, 'liveness').history).toBe(history);
  });
});
