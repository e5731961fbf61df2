// `testbed gates` (the main job, `npm start`): sweeps every scenario on the memory store, runs
// each on an embedded PostgreSQL and compares it with the memory store run for run, replays the
// failover and restore scenarios with real faults, hunts every mutant, then computes the gates
// of seed 000 §316 and seed 001 §339 from that evidence alone and writes the report.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pc from 'picocolors';
import { computeGates, saveResults, writeReports, type GateRunInput, type MutantEvidence, type ScenarioEvidence, type SuiteEvidence } from '../../reports/index.ts';
import { MUTANTS } from '../../adapters/mutants/index.ts';
import { checkMutant, checkStore, type StageCatch } from '../../campaign/check/index.ts';
import { listScenarios } from '../../scenarios/index.ts';
import { runMutants } from '../../sim/mutant-run.ts';
import type { RunResult } from '../../sim/run-result.ts';
import { replayLine, type StoreChoice } from '../../sim/run.ts';
import { replayLine as printedReplay } from '../../reports/replay-line.ts';
import { resolveAdapter } from '../adapters.ts';
import { EXIT, UsageError } from '../errors.ts';
import { printJson } from '../format.ts';
import { checkOutDir } from '../out-dir.ts';
import { startProgress } from '../progress.ts';
import { runSuites } from '../suites.ts';
import { memorySweeps, sweep, type Sweep } from './gates-sweeps.ts';

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
