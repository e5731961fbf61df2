// `testbed gates` (the main job, `npm start`): sweeps every scenario on the memory store, runs
// each on an embedded PostgreSQL and compares it with the memory store run for run, replays the
// failover and restore scenarios with real faults, hunts every mutant, then computes the gates
// of seed 000 §316 and seed 001 §339 from that evidence alone and writes the report. With a shard
// (`--shard i/n`, or the environment: cli/seeds.ts) it does only its share of that work
// (campaign/shard-plan.ts) and writes a shard file for `testbed merge` instead of the report.

import { gateStageAdapter, realFaultAdapter } from '../../adapters/backends.ts';
import pc from 'picocolors';
import type { ScenarioEvidence, SuiteEvidence } from '../../reports/index.ts';
import { MUTANTS } from '../../adapters/mutants/index.ts';
import { checkMutant, checkStore, type StageCatch } from '../../campaign/check/index.ts';
import { shareOf, WHOLE, type GateWork, type ShardShare } from '../../campaign/shard-plan.ts';
import { listScenarios, type Scenario } from '../../scenarios/index.ts';
import { runMutants } from '../../campaign/mutant-run.ts';
import type { RunResult } from '../../sim/run-result.ts';
import type { StoreChoice } from '../../sim/run.ts';
import { resolveAdapter } from '../adapters.ts';
import { UsageError } from '../errors.ts';
import { finishGateRun, Phases } from '../gate-output.ts';
import { checkMutantsSuite, mutantEvidence } from '../mutant-evidence.ts';
import { mutationEvidence } from '../mutation-evidence.ts';
import { checkOutDir } from '../out-dir.ts';
import { startProgress } from '../progress.ts';
import { shardFrom } from '../seeds.ts';
import { runSuites } from '../suites.ts';
import { memorySweeps, sweep, type Sweep } from './gates-sweeps.ts';
import { printShare, writeShard } from './shard-output.ts';
import type { GatesOptions } from './gates-flags.ts';

/** The scenarios replayed against a real primary/replica pair with real faults (one seed each). */
const REAL_FAULT_SCENARIOS = ['db-failover', 'db-failover-unmitigated', 'restore', 'restore-unmitigated'];

function count(text: string, flag: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) > max) throw new UsageError(`bad ${flag} "${text}": expected an integer in 0..${max}`);
  return Number(text);
}

/** The whole run the options ask for, before any sharding. */
export function gateWork(options: Pick<GatesOptions, 'seeds' | 'pgSeeds' | 'postgres'>): GateWork {
  const scenarios = listScenarios().map((s) => s.name);
  return {
    seeds: count(options.seeds, '--seeds', 100_000),
    // Checked even when PostgreSQL is off: a bad value is bad input either way.
    pgSeeds: count(options.pgSeeds, '--pg-seeds', 10_000) * (options.postgres ? 1 : 0),
    postgres: options.postgres,
    scenarios,
    realFaultScenarios: REAL_FAULT_SCENARIOS.filter((name) => scenarios.includes(name)),
    mutants: MUTANTS.map((m) => m.name),
  };
}

export async function gatesCommand(options: GatesOptions): Promise<void> {
  const work = gateWork(options);
  const shard = shardFrom(options.shard);
  const share = shareOf(work, shard ?? WHOLE);
  if (options.dryRun) return printShare('gates', work, shard, share, options.json);
  // Before any work: a report that cannot be written is bad input now, not after the whole suite.
  await checkOutDir(options.out);
  const run = new GateRun(options);
  const startedAt = new Date().toISOString();
  await run.stages(work, share);
  const input = { startedAt, finishedAt: new Date().toISOString(), ...run.evidence() };
  if (shard !== undefined) return writeShard({ command: 'gates', shard, work, results: input }, options, run.phases.line());
  await finishGateRun(input, options, [run.phases.line()]);
}

/** The evidence of one gate run (or one shard's share of it), stage by stage. */
class GateRun {
  readonly phases = new Phases();
  private readonly scenarios: ScenarioEvidence[] = [];
  private readonly samples: RunResult[] = [];
  private readonly suites: SuiteEvidence[] = [];
  private readonly mutants: ReturnType<typeof mutantEvidence>[] = [];

  constructor(private readonly options: GatesOptions) {}

  evidence() {
    return { scenarios: this.scenarios, mutants: this.mutants, suites: this.suites, samples: this.samples };
  }

  private say(line: string): void {
    if (!this.options.json) process.stderr.write(`${line}\n`);
  }

  /**
   * Timelines need one clean run per scenario (the memory sweep's, of seed 1) and every first
   * failing run. A shard without seed 1 keeps no clean run: the merge would drop it for seed 1's.
   */
  private keep(s: Sweep, withCleanSample = true): void {
    this.scenarios.push(s.evidence);
    if (withCleanSample && s.sample !== null && s.sample !== s.failing && s.sample.seed === 1) this.samples.push(s.sample);
    if (s.failing !== null) this.samples.push(s.failing);
  }

  async stages(work: GateWork, share: ShardShare): Promise<void> {
    const scenarios = listScenarios();
    const mutantNote = share.mutants.length === work.mutants.length ? 'every store mutant' : `${share.mutants.length} of ${work.mutants.length} mutants`;
    this.say(pc.bold(`1/6 command-level check: ${mutantNote}${share.checkPostgres ? ', and PostgreSQL against the model' : ''}`));
    const checks = await this.phases.time('check', () => this.checkStage(share));

    this.say(pc.bold(`2/6 scenarios on the memory store: ${scenarios.length} scenarios x ${share.memorySeeds.length} seeds`));
    const memoryHashes = await this.phases.time('memory', () => this.memoryStage(scenarios, share.memorySeeds));

    if (share.pgSeeds.length > 0 || share.realFaultScenarios.length > 0) {
      await this.postgresStage(scenarios, share.pgSeeds, memoryHashes);
      await this.realFaultStage(scenarios, share.realFaultScenarios);
    } else {
      this.say(pc.dim(`3/6 and 4/6 skipped: ${work.postgres ? 'no PostgreSQL work in this shard' : 'PostgreSQL is off for this run (its gates show as untested)'}`));
    }

    if (share.suites) {
      this.say(pc.bold(`5/6 test suites: store conformance, idempotency scoping, scope identity, SQL races interleaved and explored`));
      this.suites.push(...(await this.phases.time('suites', async () => runSuites(work.postgres))));
      const mutation = mutationEvidence(this.options.out);
      this.say(pc.dim(mutation.line));
      if (mutation.suite !== null) this.suites.push(mutation.suite);
    }

    this.say(pc.bold(`6/6 mutants: ${mutantNote === 'every store mutant' ? 'every known-bad implementation' : mutantNote}, up to ${Math.max(work.seeds, 1)} seeds each`));
    await this.phases.time('mutants', () => this.mutantStage(share.mutants, Math.max(work.seeds, 1), checks));
  }

  private async memoryStage(scenarios: ReadonlyArray<Scenario>, seeds: ReadonlyArray<number>): Promise<Map<string, ReadonlyMap<number, string>>> {
    const hashes = new Map<string, ReadonlyMap<number, string>>();
    const progress = startProgress(scenarios.length * seeds.length, 'gates memory', !this.options.json, 'runs');
    const flaky: string[] = [];
    try {
      for (const result of await memorySweeps(scenarios, seeds, (name, n) => progress.tick(name, n))) {
        hashes.set(result.evidence.scenario, result.hashes);
        this.keep(result);
        const first = result.evidence.firstFailure;
        if (first?.flaky === true) flaky.push(`  flaky: ${result.evidence.scenario} seed ${first.seed} violated ${first.violations[0]?.invariant ?? 'an invariant'} and did not when run again: still a failure found (${first.replay})`);
      }
    } finally {
      progress.stop();
    }
    for (const line of flaky) this.say(pc.yellow(line));
    return hashes;
  }

  private async postgresStage(scenarios: ReadonlyArray<Scenario>, seeds: ReadonlyArray<number>, memoryHashes: ReadonlyMap<string, ReadonlyMap<number, string>>): Promise<void> {
    if (seeds.length === 0) return;
    this.say(pc.bold(`3/6 scenarios on PostgreSQL in lockstep with virtual time: ${scenarios.length} x ${seeds.length} seeds`));
    const started = performance.now();
    const postgres = await resolveAdapter(gateStageAdapter('postgres'));
    let same = 0;
    let differing = 0;
    const progress = startProgress(scenarios.length * seeds.length, 'gates postgres', !this.options.json, 'runs');
    try {
      for (const scenario of scenarios) {
        const result = await sweep(scenario, seeds, postgres.store, 'sim', () => progress.tick(scenario.name));
        this.keep(result, false);
        // Same seed, same plan, same outcomes: the trace hashes agree exactly when every outcome does.
        for (const [seed, hash] of result.hashes) {
          if (memoryHashes.get(scenario.name)?.get(seed) === hash) same++;
          else differing++;
        }
      }
    } finally {
      progress.stop();
      await postgres.close();
    }
    const ms = this.phases.add('postgres', performance.now() - started);
    this.suites.push({ name: 'differential-postgres', passed: same, failed: differing, durationMs: ms });
  }

  private async realFaultStage(scenarios: ReadonlyArray<Scenario>, names: ReadonlyArray<string>): Promise<void> {
    if (names.length === 0) return;
    this.say(pc.bold(`4/6 failover and restore against a real primary/replica pair with real faults`));
    const progress = startProgress(names.length, 'gates real faults', !this.options.json, 'scenarios');
    try {
      await this.phases.time('real faults', async () => {
        for (const name of names) {
          const scenario = scenarios.find((s) => s.name === name);
          if (scenario === undefined) continue;
          const realStore: StoreChoice = { name: realFaultAdapter(), factory: () => Promise.reject(new Error('opened per run')) };
          this.keep(await sweep(scenario, [1], realStore, 'real', () => progress.tick(name), true));
        }
      });
    } finally {
      progress.stop();
    }
  }

  /**
   * Stage 1, the command-level check: every store mutant must diverge from the model, and the
   * PostgreSQL store must not (its result is the `check-postgres` suite of the gate evidence).
   */
  private async checkStage(share: ShardShare): Promise<Map<string, { readonly catch: StageCatch | null; readonly ms: number }>> {
    const checks = new Map<string, { readonly catch: StageCatch | null; readonly ms: number }>();
    const started = performance.now();
    const mutants = MUTANTS.filter((m) => share.mutants.includes(m.name));
    const progress = startProgress(mutants.length, 'gates check', !this.options.json, 'mutants');
    try {
      for (const mutant of mutants) {
        const mutantStarted = performance.now();
        checks.set(mutant.name, { catch: await checkMutant(mutant), ms: performance.now() - mutantStarted });
        progress.tick(`last ${mutant.name}`);
      }
    } finally {
      progress.stop();
    }
    // The check's power: a pass of check-postgres means something only if it catches broken stores.
    // A mutant only the check can catch is judged as a mutant of its own (caught or escaped), so it
    // is left out here: one miss counts once in the run's verdict.
    const hunted = MUTANTS.filter((m) => m.checkOnly === undefined).map((m) => m.name);
    this.suites.push(checkMutantsSuite([...checks].filter(([name]) => hunted.includes(name)).map(([, c]) => c.catch), performance.now() - started));
    if (share.checkPostgres) this.suites.push(await this.checkPostgres());
    return checks;
  }

  private async checkPostgres(): Promise<SuiteEvidence> {
    const started = performance.now();
    const postgres = await resolveAdapter(gateStageAdapter('postgres'));
    try {
      const result = await checkStore({ factory: postgres.store.factory, runs: POSTGRES_CHECK_RUNS, seed: 1 });
      if (result.verdict !== 'pass') this.say(pc.red(`  PostgreSQL diverges from the model: npx testbed check --adapter postgres --seed 1${result.verdict === 'fail' ? ` --path ${result.path}` : ''}`));
      return {
        name: 'check-postgres',
        passed: result.verdict === 'pass' ? result.runs : 0,
        failed: result.verdict === 'pass' ? 0 : 1,
        durationMs: Math.round(performance.now() - started),
      };
    } finally {
      await postgres.close();
    }
  }

  /** One mutant at a time, for each hunt's own time (the hunts are independent: the same reports). */
  private async mutantStage(names: ReadonlyArray<string>, seeds: number, checks: ReadonlyMap<string, { readonly catch: StageCatch | null; readonly ms: number }>): Promise<void> {
    const mutants = MUTANTS.filter((m) => names.includes(m.name));
    const progress = startProgress(mutants.length, 'gates mutants', !this.options.json, 'mutants');
    try {
      for (const mutant of mutants) {
        const started = performance.now();
        const [m] = await runMutants({ seeds, mutants: [mutant] });
        if (m !== undefined) {
          const check = checks.get(m.name);
          this.mutants.push(mutantEvidence(m, check?.catch, performance.now() - started + (check?.ms ?? 0)));
        }
        progress.tick(`last ${mutant.name}`);
      }
    } finally {
      progress.stop();
    }
  }
}

/** Sequences the check runs against PostgreSQL in the gate suite (about 5 ms each). */
const POSTGRES_CHECK_RUNS = 300;
