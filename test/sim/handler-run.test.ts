// seed 003 (cause-reclassified-after-return), seed 000 §157–§159: every handler run under a lease records
// its outcome and the facts it follows from, and is judged by outcome-at-return wherever handlers run;
// lease-loss-after-return reaches the race (a loss that lands after the handler returned), which
// the correct runtime ignores and a runtime that reads the cause after the drain does not.
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../adapters/memory.ts';
import type { History, HistoryEvent } from '../../model/history.ts';
import { listScenarios, loadScenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';

const memory = { name: 'memory', factory: createMemoryStore };

interface RunFacts {
  returned?: HistoryEvent;
  cause?: HistoryEvent;
  end?: HistoryEvent;
}

/** The facts of every handler run of a history, by run process. */
function runsOf(history: History): Map<string, RunFacts> {
  const runs = new Map<string, RunFacts>();
  for (const e of history) {
    if (e.f === 'run' && e.type === 'invoke') runs.set(e.process, {});
    const process = e.f === 'run' ? e.process : (e.value as { process?: string }).process;
    const facts = process === undefined ? undefined : runs.get(process);
    if (facts === undefined) continue;
    if (e.f === 'run' && e.type !== 'invoke') facts.end = e;
    if (e.f === 'handler-returned') facts.returned = e;
    if (e.f === 'cancel-cause') facts.cause ??= e;
  }
  return runs;
}

/** Runs whose cancellation cause landed after their handler returned and before they were classified. */
function lateLosses(history: History): RunFacts[] {
  return [...runsOf(history).values()].filter((r) => r.cause !== undefined && r.returned !== undefined && r.end !== undefined && r.cause.index > r.returned.index);
}

const outcome = (r: RunFacts) => (r.end!.value as { outcome: string }).outcome;

describe('handler runs', () => {
  it('every scenario in which handlers run is judged by outcome-at-return', async () => {
    const unjudged: string[] = [];
    for (const scenario of listScenarios()) {
      const { history } = await runScenario({ scenario, seed: 1, store: memory });
      if (runsOf(history).size > 0 && !scenario.invariants.includes('outcome-at-return')) unjudged.push(scenario.name);
    }
    expect(unjudged).toEqual([]);
  }, 120_000);

  it('a run opens with its leases, and closes after its handler returned with the outcome the facts before the return give', async () => {
    const { history, valid } = await runScenario({ scenario: loadScenario('lease-loss-after-return'), seed: 3, store: memory });
    expect(valid).toBe(true);
    const closed = [...runsOf(history).values()].filter((r) => r.end !== undefined && r.end.type !== 'info');
    expect(closed.length).toBeGreaterThan(10);
    for (const r of closed) {
      expect(r.returned!.index).toBeLessThan(r.end!.index);
      const result = (r.returned!.value as { result: string }).result;
      const expected = r.cause !== undefined && r.cause.index < r.returned!.index ? 'preempted' : result === 'ok' ? 'completed' : 'error';
      expect(outcome(r)).toBe(expected);
    }
    // Both kinds of handler result occur (workload.handlerErrorPct), and so does a preemption.
    expect(new Set(closed.map(outcome))).toEqual(new Set(['completed', 'error', 'preempted']));
  });

  it('lease-loss-after-return reaches the race: the correct runtime keeps the handler\'s result, one that reads the cause after the drain does not', async () => {
    const scenario = loadScenario('lease-loss-after-return');
    let reached = 0;
    for (let seed = 1; seed <= 5; seed++) {
      const correct = lateLosses((await runScenario({ scenario, seed, store: memory })).history);
      reached += correct.length;
      for (const r of correct) expect(outcome(r)).not.toBe('preempted');
      const broken = await runScenario({ scenario, seed, store: memory, policy: { snapshotCauseAtReturn: false } });
      const late = lateLosses(broken.history);
      expect(late.length).toBeGreaterThan(0);
      for (const r of late) expect(outcome(r)).toBe('preempted');
      expect(broken.violations.map((v) => v.invariant)).toContain('outcome-at-return');
    }
    expect(reached).toBeGreaterThan(5);
  });
});
