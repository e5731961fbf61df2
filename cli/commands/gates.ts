// `testbed gates` (the main job, `npm start`): sweeps every scenario on the memory store, runs
// each on an embedded PostgreSQL and compares it with the memory store run for run, replays the
// failover and restore scenarios with real faults, hunts every mutant, then computes the gates
// of seed 000 §316 and seed 001 §339 from that evidence alone and writes the report.

import { strict as assert } from 'node:assert';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pc from 'picocolors';
import { computeGates, saveResults, writeReports, type GateRunInput, type MutantEvidence, type ScenarioEvidence, type SuiteEvidence } from '../../reports/index.ts';
import { inProcessAdapter } from '../../adapters/in-process.ts';
import { MUTANTS } from '../../adapters/mutants/index.ts';
import { checkMutant, checkStore, type StageCatch } from '../../campaign/check/index.ts';
import { listScenarios, type Scenario } from '../../scenarios/index.ts';
import { runMutants } from '../../sim/mutant-run.ts';
import type { RunResult } from '../../sim/run-result.ts';
import { replayLine, runScenario, type StoreChoice } from '../../sim/run.ts';
import { replayLine as printedReplay } from '../../reports/replay-line.ts';
import { autoWorkers, sweepPool, sweepRun, type SweepRun } from '../../sim/sweep-pool.ts';
import { resolveAdapter } from '../adapters.ts';
import { EXIT, UsageError } from '../errors.ts';
import { printJson } from '../format.ts';
import { checkOutDir } from '../out-dir.ts';
import { startProgress } from '../progress.ts';
import { startRealRun } from '../real-faults.ts';
import { runSuites } from '../suites.ts';

export interface GatesOptions {
  readonly out: string;
  readonly seeds: string;
  readonly pgSeeds: string;
  readonly postgres: boolean;
  readonly json?: boolean;
}

/** The scenarios replayed against a real primary/replica pair with real faults (one seed each). */
const REAL_FAULT_SCENARIOS = ['db-failover', 'db-failover-unmitigated', 'restore', 'restore-unmitigated'];

function count(text: string, flag: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) > max) throw new UsageError(`bad ${flag} "${text}": expected an integer in 0..${max}`);
  return Number(text);
}

function say(options: GatesOptions, line: string): void {
  if (!options.json) process.stderr.write(`${line}\n`);
}

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
  failing: RunResult | null,
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
    ...(failing === null ? {} : { firstFailure: { seed: failing.seed, replay: failing.replay, violations: failing.violations } }),
    status: failures === 0 && undecided > 0 ? 'unknown' : 'decided',
    durationMs: Math.round(durationMs),
  };
}

async function sweep(scenario: Scenario, seeds: ReadonlyArray<number>, store: StoreChoice, faults: 'sim' | 'real', tick: () => void, real = false): Promise<Sweep> {
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
  return { evidence: evidenceOf(scenario, store.name, faults, seeds.length, failures, undecided, failing, performance.now() - started), sample, failing, hashes };
}

/**
 * Stage 1: every scenario on the memory store, on worker threads when the sweep is large enough
 * (sim/sweep-pool.ts). Workers return no histories: the runs a report keeps (the first seed of
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
    assert.equal(result.traceHash, run.traceHash, `${scenario.name} seed ${run.seed}: a second run gave another trace hash`);
    return result;
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
    const failing = firstFailing === undefined ? null : await rerun(scenario, firstFailing);
    const sample = own.length === 0 ? null : own[0] === firstFailing ? failing : await rerun(scenario, own[0]!);
    const failures = own.filter((run) => run.valid === false).length;
    const undecided = own.filter((run) => run.valid === 'unknown').length;
    const durationMs = (stageMs * own.reduce((n, run) => n + run.events, 0)) / totalEvents + (performance.now() - rerunStarted);
    sweeps.push({
      evidence: evidenceOf(scenario, memory.name, 'sim', own.length, failures, undecided, failing, durationMs),
      sample,
      failing,
      hashes: new Map(own.map((run) => [run.seed, run.traceHash])),
    });
  }
  return sweeps;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

export async function gatesCommand(options: GatesOptions): Promise<void> {
  const memorySeeds = count(options.seeds, '--seeds', 100_000);
  const pgSeeds = count(options.pgSeeds, '--pg-seeds', 10_000);
  // Before any work: a report that cannot be written is bad input now, not after the whole suite.
  await checkOutDir(options.out);
  const startedAt = new Date().toISOString();
  const phases = new Phases();
  const scenarios = listScenarios();
  const evidence: ScenarioEvidence[] = [];
  const samples: RunResult[] = [];
  const suites: SuiteEvidence[] = [];
  // Timelines need one clean run per scenario (the memory sweep's) and every failing run.
  const keep = (s: Sweep, withCleanSample = true) => {
    evidence.push(s.evidence);
    if (withCleanSample && s.sample !== null && s.sample !== s.failing) samples.push(s.sample);
    if (s.failing !== null) samples.push(s.failing);
  };

  say(options, pc.bold(`1/6 command-level check: every store mutant${options.postgres ? ', and PostgreSQL against the model' : ''}`));
  const checks = await phases.time('check', () => checkStage(options, suites));

  say(options, pc.bold(`2/6 scenarios on the memory store: ${scenarios.length} scenarios x ${memorySeeds} seeds`));
  const memoryHashes = new Map<string, ReadonlyMap<number, string>>();
  let progress = startProgress(scenarios.length * memorySeeds, 'memory', !options.json);
  try {
    for (const result of await phases.time('memory', () => memorySweeps(scenarios, range(memorySeeds), (name, count) => progress.tick(name, count)))) {
      memoryHashes.set(result.evidence.scenario, result.hashes);
      keep(result);
    }
  } finally {
    progress.stop();
  }

  if (options.postgres && pgSeeds > 0) {
    say(options, pc.bold(`3/6 scenarios on PostgreSQL in lockstep with virtual time: ${scenarios.length} x ${pgSeeds} seeds`));
    const postgresStarted = performance.now();
    const postgres = await resolveAdapter('postgres');
    let same = 0;
    let differing = 0;
    try {
      progress = startProgress(scenarios.length * pgSeeds, 'postgres', !options.json);
      for (const scenario of scenarios) {
        const result = await sweep(scenario, range(pgSeeds), postgres.store, 'sim', () => progress.tick(scenario.name));
        keep(result, false);
        // Same seed, same plan, same outcomes: the trace hashes agree exactly when every outcome does.
        for (const [seed, hash] of result.hashes) {
          if (memoryHashes.get(scenario.name)?.get(seed) === hash) same++;
          else differing++;
        }
      }
      progress.stop();
    } finally {
      await postgres.close();
    }
    const postgresMs = phases.add('postgres', performance.now() - postgresStarted);
    suites.push({ name: 'differential-postgres', passed: same, failed: differing, durationMs: postgresMs });

    say(options, pc.bold(`4/6 failover and restore against a real primary/replica pair with real faults`));
    progress = startProgress(REAL_FAULT_SCENARIOS.length, 'real faults', !options.json);
    await phases.time('real faults', async () => {
      for (const name of REAL_FAULT_SCENARIOS) {
        const scenario = scenarios.find((s) => s.name === name);
        if (scenario === undefined) continue;
        const realStore: StoreChoice = { name: 'postgres', factory: () => Promise.reject(new Error('opened per run')) };
        keep(await sweep(scenario, [1], realStore, 'real', () => progress.tick(name), true));
      }
    });
    progress.stop();
  } else {
    say(options, pc.dim('3/6 and 4/6 skipped: PostgreSQL is off for this run (its gates show as untested)'));
  }

  say(options, pc.bold(`5/6 test suites: store conformance, idempotency scoping, scope identity`));
  suites.push(...(await phases.time('suites', async () => runSuites(options.postgres))));

  say(options, pc.bold(`6/6 mutants: every known-bad implementation, up to ${Math.max(memorySeeds, 1)} seeds each`));
  // One mutant at a time, for each hunt's own time (the hunts are independent: the same reports).
  const mutants: MutantEvidence[] = [];
  await phases.time('mutants', async () => {
    for (const mutant of MUTANTS) {
      const started = performance.now();
      const [m] = await runMutants({ seeds: Math.max(memorySeeds, 1), mutants: [mutant] });
      if (m === undefined) continue;
      const check = checks.get(m.name);
      mutants.push({
        name: m.name,
        bug: m.bug,
        caught: m.caught,
        seedsTried: m.seedsTried,
        ...(m.firstFailingSeed === null ? {} : { firstFailingSeed: m.firstFailingSeed }),
        ...(m.firstFailingScenario === null ? {} : { firstFailingScenario: m.firstFailingScenario }),
        ...(m.shrunkOperations === null ? {} : { shrunkOperations: m.shrunkOperations }),
        // The counterexample may come from a later catch than the first: say which.
        ...(m.scenario === null || m.failure === null || (m.scenario === m.firstFailingScenario && m.failure.seed === m.firstFailingSeed)
          ? {}
          : { shrunkFrom: { scenario: m.scenario, seed: m.failure.seed } }),
        // The replay line replays the first catch, the run the report names as "caught at".
        ...(m.firstFailingScenario === null || m.firstFailingSeed === null ? {} : { replay: replayLine(m.firstFailingScenario, m.firstFailingSeed, `mutant:${m.name}`, 'sim') }),
        ...checkEvidence(check?.catch),
        catches: m.catches,
        durationMs: Math.round(performance.now() - started + (check?.ms ?? 0)),
      });
    }
  });

  const input: GateRunInput = { startedAt, finishedAt: new Date().toISOString(), scenarios: evidence, mutants, suites, samples };
  await mkdir(options.out, { recursive: true });
  await saveResults(input, path.join(options.out, 'results.json'));
  const written = await writeReports(input, options.out);
  const gates = computeGates(input);
  if (options.json) {
    printJson({ gates: gates.map((g) => ({ id: g.id, title: g.title, source: g.source, status: g.status, evidence: g.evidence })) });
  } else {
    printGateTable(gates);
    printWhy(gates);
    process.stdout.write(`${phases.line()}\n`);
    process.stdout.write(`\nreport: ${path.resolve(options.out, 'index.html')}\n`);
    process.stdout.write(pc.dim(`also: ${written.files.filter((f) => !f.endsWith('index.html')).join(', ')}, ${path.join(options.out, 'results.json')}\n`));
  }
  process.exitCode = gates.some((g) => g.status === 'fail')
    ? EXIT.violation
    : evidence.some((e) => e.status === 'unknown')
      ? EXIT.undecided
      : EXIT.ok;
}

/** Sequences the check runs against PostgreSQL in the gate suite (about 5 ms each). */
const POSTGRES_CHECK_RUNS = 300;

/**
 * Stage 1, the command-level check: every store mutant must diverge from the model, and the
 * PostgreSQL store must not (its result is the `check-postgres` suite of the gate evidence).
 */
async function checkStage(options: GatesOptions, suites: SuiteEvidence[]): Promise<Map<string, { readonly catch: StageCatch; readonly ms: number }>> {
  const checks = new Map<string, { readonly catch: StageCatch; readonly ms: number }>();
  const started = performance.now();
  for (const mutant of MUTANTS) {
    const mutantStarted = performance.now();
    const check = await checkMutant(mutant);
    if (check !== null) checks.set(mutant.name, { catch: check, ms: performance.now() - mutantStarted });
  }
  // The check's power: a pass of check-postgres means something only if it catches broken stores.
  const caught = [...checks.values()].filter((c) => c.catch.caught).length;
  suites.push({ name: 'check-mutants', passed: caught, failed: checks.size - caught, durationMs: Math.round(performance.now() - started) });
  if (options.postgres) {
    const postgresStarted = performance.now();
    const postgres = await resolveAdapter('postgres');
    try {
      const result = await checkStore({ factory: postgres.store.factory, runs: POSTGRES_CHECK_RUNS, seed: 1 });
      if (result.verdict !== 'pass') say(options, pc.red(`  PostgreSQL diverges from the model: npx testbed check --adapter postgres --seed 1${result.verdict === 'fail' ? ` --path ${result.path}` : ''}`));
      suites.push({
        name: 'check-postgres',
        passed: result.verdict === 'pass' ? result.runs : 0,
        failed: result.verdict === 'pass' ? 0 : 1,
        durationMs: Math.round(performance.now() - postgresStarted),
      });
    } finally {
      await postgres.close();
    }
  }
  return checks;
}

function checkEvidence(check: StageCatch | undefined): Pick<MutantEvidence, 'check'> {
  if (check === undefined) return {};
  return {
    check: {
      caught: check.caught,
      ...(check.firstFailureMs === null ? {} : { firstFailureMs: check.firstFailureMs }),
      ...(check.steps === null ? {} : { steps: check.steps }),
      replay: check.replay,
    },
  };
}

function printGateTable(gates: ReturnType<typeof computeGates>): void {
  const colour = { pass: pc.green, partial: pc.cyan, fail: pc.red, untested: pc.yellow } as const;
  for (const gate of gates) {
    process.stdout.write(`${colour[gate.status](gate.status.padEnd(8))} ${gate.source.padEnd(9)} ${gate.title}\n`);
  }
  const tally = (status: string) => gates.filter((g) => g.status === status).length;
  process.stdout.write(`${gates.length} gates: ${tally('pass')} pass, ${tally('partial')} partial, ${tally('fail')} fail, ${tally('untested')} untested\n`);
}

/**
 * The rows that did not pass, failing first, each with why (its evidence summary) and the lines
 * that replay what failed, so the console says what the HTML and Markdown reports say.
 */
function printWhy(gates: ReturnType<typeof computeGates>): void {
  const order = ['fail', 'untested', 'partial'] as const;
  const open = order.flatMap((status) => gates.filter((g) => g.status === status));
  if (open.length === 0) return;
  process.stdout.write(`\n${pc.bold('rows that did not pass, and why')}\n`);
  const colour = { partial: pc.cyan, fail: pc.red, untested: pc.yellow } as const;
  for (const gate of open) {
    process.stdout.write(`${colour[gate.status as keyof typeof colour](gate.status)} ${gate.id}: ${gate.evidence.summary}\n`);
    const replays = new Set<string>();
    for (const proof of gate.evidence.scenarios) if (!proof.holds && proof.firstFailure !== undefined) replays.add(proof.firstFailure.replay);
    for (const proof of gate.evidence.mutants) if (!proof.holds && proof.replay !== undefined) replays.add(proof.replay);
    for (const replay of replays) process.stdout.write(`  ${printedReplay(replay)}\n`);
  }
}

/** Wall-clock time of each stage of the gate run, printed after the table. */
class Phases {
  private readonly spent: Array<readonly [string, number]> = [];

  async time<T>(name: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(name, performance.now() - started);
    }
  }

  /** Records `ms` for `name`; returns it rounded. */
  add(name: string, ms: number): number {
    this.spent.push([name, ms]);
    return Math.round(ms);
  }

  line(): string {
    return `time: ${this.spent.map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`).join(', ')}`;
  }
}
