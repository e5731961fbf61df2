// The scenario sweeps of `testbed gates`: one scenario over seeds on one store (PostgreSQL, real
// faults), or every scenario on the memory store over worker threads; each gives the evidence a
// gate reads, a sample run and the first failing run (kept whole for the report), and the trace
// hash of every seed (compared across stores). A first failing run that does not fail again when
// run here for its history is flaky (campaign/flaky-failure.ts): it still fails the sweep, its
// evidence says so, and the report keeps no history for it.

import { strict as assert } from 'node:assert';
import { inProcessAdapter } from '../../mutants/in-process.ts';
import type { FirstFailure, ScenarioEvidence } from './evidence.ts';
import type { Scenario } from '../../scenarios/index.ts';
import type { RunResult } from '../../sim/run-result.ts';
import { runScenario, type StoreChoice } from '../../sim/run.ts';
import { rerunFailure } from '../flaky-failure.ts';
import { autoWorkers, sweepPool, sweepRun, type SweepRun } from '../sweep-pool.ts';
import { startRealRun } from '../real-faults.ts';

export interface Sweep {
  readonly evidence: ScenarioEvidence;
  readonly sample: RunResult | null;
  readonly failing: RunResult | null;
  readonly hashes: ReadonlyMap<number, string>;
}

/** What a gate sees of one scenario's sweep; a violation outranks an undecided seed, as in checkAll. */
function evidenceOf(
  scenario: Scenario,
  adapter: string,
  faults: 'sim' | 'real',
  seedsRun: number,
  failures: number,
  undecided: number,
  firstFailure: FirstFailure | null,
  durationMs: number,
): ScenarioEvidence {
  return {
    scenario: scenario.name,
    title: scenario.title,
    sources: scenario.sources,
    adapter,
    faults,
    expect: scenario.expect,
    seedsRun,
    failures,
    ...(firstFailure === null ? {} : { firstFailure }),
    status: failures === 0 && undecided > 0 ? 'unknown' : 'decided',
    durationMs: Math.round(durationMs),
  };
}

export async function sweep(scenario: Scenario, seeds: ReadonlyArray<number>, store: StoreChoice, faults: 'sim' | 'real', tick: () => void, real = false): Promise<Sweep> {
  let failures = 0;
  let undecided = 0;
  let sample: RunResult | null = null;
  let failing: RunResult | null = null;
  const hashes = new Map<number, string>();
  const started = performance.now();
  for (const seed of seeds) {
    const realRun = real ? await startRealRun(seed) : undefined;
    let result: RunResult;
    try {
      result = await runScenario({ scenario, seed, store: realRun?.store ?? store, faults, ...(realRun === undefined ? {} : { realFaults: realRun.driver }) });
    } finally {
      await realRun?.close();
    }
    hashes.set(seed, result.traceHash);
    sample ??= result;
    if (result.valid === false) {
      failures++;
      failing ??= result;
    } else if (result.valid === 'unknown') {
      undecided++;
    }
    tick();
  }
  return { evidence: evidenceOf(scenario, store.name, faults, seeds.length, failures, undecided, failing === null ? null : firstFailureOf(failing), performance.now() - started), sample, failing, hashes };
}

/** A run's trace hash: the pool is asked for every run's. */
function hashOf(run: SweepRun): string {
  assert.ok(run.traceHash !== null, `seed ${run.seed} came back without its trace hash`);
  return run.traceHash;
}

function firstFailureOf(failing: RunResult): FirstFailure {
  return { seed: failing.seed, replay: failing.replay, violations: failing.violations };
}

/**
 * Stage 1: every scenario on the memory store, on worker threads when the sweep is large enough
 * (campaign/sweep-pool.ts). Workers return no histories: the runs a report keeps (the first seed of
 * each scenario and its first failing seed) are run again here, and must give the same trace hash.
 */
export async function memorySweeps(
  scenarios: ReadonlyArray<Scenario>,
  seeds: ReadonlyArray<number>,
  tick: (scenario: string, count?: number) => void,
  workers = autoWorkers(scenarios.length * seeds.length),
): Promise<Sweep[]> {
  const memory = inProcessAdapter('memory')!;
  const started = performance.now();
  let runs: ReadonlyArray<SweepRun>;
  if (workers > 1) {
    runs = await sweepPool({ scenarios, seeds, adapter: memory.name, workers, onRuns: (batch) => tick(batch[0]?.scenario ?? '', batch.length) });
  } else {
    const serial: SweepRun[] = [];
    for (const scenario of scenarios) {
      for (const seed of seeds) {
        serial.push(await sweepRun(scenario, seed, memory));
        tick(scenario.name);
      }
    }
    runs = serial;
  }
  const rerun = async (scenario: Scenario, run: SweepRun): Promise<RunResult> => {
    const result = await runScenario({ scenario, seed: run.seed, store: memory.store });
    assert.equal(result.traceHash, hashOf(run), `${scenario.name} seed ${run.seed}: a second run gave another trace hash`);
    return result;
  };
  // The first failing run again, for its history; one that does not fail again is flaky, not an error.
  const rerunFailing = async (scenario: Scenario, run: SweepRun): Promise<{ readonly failing: RunResult | null; readonly firstFailure: FirstFailure }> => {
    const again = await rerunFailure(run, () => runScenario({ scenario, seed: run.seed, store: memory.store }));
    if (again.kind === 'flaky') return { failing: null, firstFailure: { seed: run.seed, replay: again.rerun.replay, violations: run.violations, flaky: true } };
    assert.equal(again.result.traceHash, run.traceHash, `${scenario.name} seed ${run.seed}: a second run gave another trace hash`);
    return { failing: again.result, firstFailure: firstFailureOf(again.result) };
  };
  // Runs on worker threads overlap, so a scenario's share of the stage's wall-clock time is its
  // share of the simulated events (what a run's time goes into), plus its own re-runs here.
  const stageMs = performance.now() - started;
  const totalEvents = Math.max(1, runs.reduce((n, run) => n + run.events, 0));
  const sweeps: Sweep[] = [];
  for (const [i, scenario] of scenarios.entries()) {
    const own = runs.slice(i * seeds.length, (i + 1) * seeds.length);
    const rerunStarted = performance.now();
    const firstFailing = own.find((run) => run.valid === false);
    const { failing, firstFailure } = firstFailing === undefined ? { failing: null, firstFailure: null } : await rerunFailing(scenario, firstFailing);
    const sample = own.length === 0 ? null : own[0] === firstFailing ? failing : await rerun(scenario, own[0]!);
    const failures = own.filter((run) => run.valid === false).length;
    const undecided = own.filter((run) => run.valid === 'unknown').length;
    const durationMs = (stageMs * own.reduce((n, run) => n + run.events, 0)) / totalEvents + (performance.now() - rerunStarted);
    sweeps.push({
      evidence: evidenceOf(scenario, memory.name, 'sim', own.length, failures, undecided, firstFailure, durationMs),
      sample,
      failing,
      hashes: new Map(own.map((run) => [run.seed, hashOf(run)])),
    });
  }
  return sweeps;
}
