// `testbed mutants`: every built-in mutant against its scenarios; the testbed passes when every
// one is caught. Each catch is shrunk and written to <out>/failures/ with its replay line. With a
// shard (`--shard i/n`, or the environment: cli/seeds.ts) it hunts only its share of the mutants
// and also writes a shard file for `testbed merge`.

import pc from 'picocolors';
import { MUTANTS } from '../../mutants/index.ts';
import { checkMutant, type StageCatch } from '../../campaign/check/index.ts';
import { runMutants, type MutantReport } from '../../campaign/mutant-run.ts';
import path from 'node:path';
import { shareOf, WHOLE, type GateWork } from '../../campaign/shard-plan.ts';
import { EXIT, UsageError } from '../errors.ts';
import { checkMutantsSuite, mutantEvidence } from '../../campaign/gates/mutant-evidence.ts';
import { checkOutDir } from '../out-dir.ts';
import { shardFrom } from '../seeds.ts';
import { printShare, writeShard } from './shard-output.ts';
import { printJson } from '../format.ts';
import { POSTGRES_MUTANT_PREFIX, POSTGRES_MUTANTS } from '../../mutants/sql/index.ts';
import { startProgress } from '../progress.ts';
import { saveFailureFile, unwrittenLine } from '../record-failure.ts';
import type { MutantsOptions } from './mutants-flags.ts';

export async function mutantsCommand(options: MutantsOptions): Promise<void> {
  const seeds = Number(options.seeds);
  if (!/^\d+$/.test(options.seeds) || seeds < 1 || seeds > 100_000) throw new UsageError(`bad --seeds "${options.seeds}": expected an integer in 1..100000`);
  const work: GateWork = { seeds, pgSeeds: 0, postgres: false, scenarios: [], realFaultScenarios: [], mutants: MUTANTS.map((m) => m.name) };
  const shard = shardFrom(options.shard);
  const share = shareOf(work, shard ?? WHOLE);
  if (options.dryRun) return printShare('mutants', work, shard, share, options.json);
  await checkOutDir(options.out);
  const mutants = MUTANTS.filter((m) => share.mutants.includes(m.name));
  const startedAt = new Date().toISOString();
  const progress = startProgress(mutants.length, 'mutants', !options.json, 'mutants');
  const reports: MutantReport[] = [];
  const stages: Stages[] = [];
  try {
    for (const mutant of mutants) {
      // Two stages, timed apart: the command-level check (store mutants only), then the simulator.
      const checkStarted = performance.now();
      const check = await checkMutant(mutant);
      const started = performance.now();
      reports.push(...(await runMutants({ seeds, mutants: [mutant] })));
      stages.push({ check, checkMs: started - checkStarted, simMs: Math.round(performance.now() - started) });
      progress.tick(`last ${mutant.name}`);
    }
  } finally {
    progress.stop();
  }
  const unwritten = new Set<string>();
  for (const report of reports) {
    if (report.failure === null) continue;
    const writeError = await saveFailureFile(failureFileOf(options.out, report), report.failure);
    if (writeError === null) continue;
    unwritten.add(report.name);
    process.stderr.write(`${unwrittenLine(writeError)}\n`);
  }
  if (shard !== undefined) {
    const results = {
      startedAt,
      finishedAt: new Date().toISOString(),
      scenarios: [],
      mutants: reports.map((r, i) => mutantEvidence(r, stages[i]!.check, stages[i]!.simMs + stages[i]!.checkMs)),
      suites: [checkMutantsSuite(stages.map((s) => s.check), stages.reduce((n, s) => n + s.checkMs, 0))],
      samples: [],
    };
    await writeShard({ command: 'mutants', shard, work, results }, options);
    return;
  }
  if (options.json) {
    printJson({
      mutants: reports.map((r, i) => ({
        name: r.name,
        bug: r.bug,
        caught: r.caught,
        seedsTried: r.seedsTried,
        firstFailingSeed: r.firstFailingSeed,
        firstFailingScenario: r.firstFailingScenario,
        shrunkOperations: r.shrunkOperations,
        scenario: r.scenario,
        invariant: r.violations[0]?.invariant ?? null,
        replay: r.replay,
        failureFile: r.failure === null || unwritten.has(r.name) ? null : failureFileOf(options.out, r),
        simulatorMs: stages[i]!.simMs,
        check: stages[i]!.check,
        caughtBy: caughtBy(r, stages[i]!),
        ...(r.checkOnly === undefined ? {} : { checkOnly: r.checkOnly }),
      })),
      sqlRaceMutants: sqlRaceMutants(),
    });
  } else {
    printTable(options.out, reports, stages, unwritten);
    printSqlRaceMutants();
  }
  process.exitCode = reports.every((r, i) => r.caught || stages[i]!.check?.caught === true) ? EXIT.ok : EXIT.violation;
}

interface Stages {
  /** The command-level check's result; null for a mutant whose bug is not in the store. */
  readonly check: StageCatch | null;
  readonly checkMs: number;
  /** Time the simulator stage took (hunting and shrinking). */
  readonly simMs: number;
}

/**
 * The SQL race mutants of the PostgreSQL store (mutants/sql/): listed with the
 * command that catches each, not run here (they need a server and real concurrency; their tests
 * run those commands).
 */
function sqlRaceMutants() {
  return POSTGRES_MUTANTS.map((m) => ({
    name: `${POSTGRES_MUTANT_PREFIX}${m.name}`,
    bug: m.bug,
    caughtBy: m.caughtBy,
    catch: m.caughtBy.map((mode) =>
      mode === 'interleave'
        ? `npx testbed sweep --scenario ${m.scenarios[0] ?? 'sql-contention'} --seeds 1..50 --adapter ${POSTGRES_MUTANT_PREFIX}${m.name} --interleave${m.strategy === undefined ? '' : ` ${m.strategy}`}`
        : mode === 'race'
          ? `npx testbed race --adapter ${POSTGRES_MUTANT_PREFIX}${m.name} --kinds ${m.raceKinds.join(',')}${m.strategy === 'random-functions' ? ' --inside-functions' : ''}`
          : `npx testbed stress --adapter ${POSTGRES_MUTANT_PREFIX}${m.name} --clients 32 --duration 4s`,
    ),
  }));
}

function printSqlRaceMutants(): void {
  process.stdout.write(`\nSQL race mutants (real concurrency on PostgreSQL; not run by this command):\n`);
  for (const m of sqlRaceMutants()) {
    process.stdout.write(`  ${m.name}  caught by ${m.caughtBy.join(' and ')}\n`);
    for (const line of m.catch) process.stdout.write(pc.dim(`        ${line}\n`));
  }
}

/** The stages that caught the mutant, fastest first. */
function caughtBy(report: MutantReport, stages: Stages): string[] {
  return [...(stages.check?.caught ? ['check'] : []), ...(report.caught ? ['simulator'] : [])];
}

function failureFileOf(out: string, report: MutantReport): string {
  return path.join(out, 'failures', `mutant-${report.name}.json`);
}

function checkLine(check: StageCatch | null): string {
  if (check === null) return 'check: not a store bug (controller policy)';
  if (!check.caught) return `check: ${pc.red('not caught')} in ${check.runs} sequences`;
  return `check: caught in ${check.firstFailureMs} ms, ${check.steps} steps  (${check.replay})`;
}

function printTable(out: string, reports: ReadonlyArray<MutantReport>, stages: ReadonlyArray<Stages>, unwritten: ReadonlySet<string>): void {
  const width = Math.max(...reports.map((r) => r.name.length));
  for (const r of reports) {
    const stage = stages[reports.indexOf(r)]!;
    const status = r.caught || (r.checkOnly !== undefined && stage.check?.caught === true) ? pc.green('caught ') : pc.red('MISSED ');
    const detail = r.caught
      ? `first caught by ${r.firstFailingScenario} seed ${r.firstFailingSeed}; smallest counterexample: ${r.scenario} seed ${r.failure?.seed}, ${r.violations[0]?.invariant}, ${r.shrunkOperations} operations`
      : r.checkOnly === undefined
        ? `not caught in ${r.seedsTried} seeds`
        : `not hunted (no workload reaches it: ${r.checkOnly})`;
    process.stdout.write(`${status}${r.name.padEnd(width)}  ${detail}\n`);
    if (r.replay !== null) process.stdout.write(pc.dim(`        replay: ${r.replay}${unwritten.has(r.name) ? '' : `   (or npx testbed replay ${failureFileOf(out, r)})`}\n`));
    process.stdout.write(pc.dim(`        ${checkLine(stage.check)}; simulator: ${stage.simMs} ms\n`));
  }
  const caught = reports.filter((r) => r.caught);
  const hunted = reports.filter((r) => r.checkOnly === undefined).length;
  const seedsToCatch = caught.map((r) => r.firstFailingSeed ?? 0).sort((a, b) => a - b);
  const median = seedsToCatch.length === 0 ? null : seedsToCatch[Math.floor((seedsToCatch.length - 1) / 2)];
  const byCheck = stages.filter((s) => s.check?.caught === true).length;
  const storeMutants = stages.filter((s) => s.check !== null).length;
  process.stdout.write(`${caught.length}/${hunted} mutants caught by the simulator (${reports.length - hunted} reached by the check only); median seeds to catch: ${median ?? 'n/a'}; ${byCheck}/${storeMutants} store mutants caught by the command-level check\n`);
}
