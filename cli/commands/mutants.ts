// `testbed mutants`: every built-in mutant against its scenarios; the testbed passes when every
// one is caught. Each catch is shrunk and written to out/failures/ with its replay line.

import pc from 'picocolors';
import { MUTANTS } from '../../adapters/mutants/index.ts';
import { checkMutant, type StageCatch } from '../../campaign/check/index.ts';
import { runMutants, type MutantReport } from '../../sim/mutant-run.ts';
import { EXIT, UsageError } from '../errors.ts';
import { printJson } from '../format.ts';
import { startProgress } from '../progress.ts';
import { saveFailureFile, unwrittenLine } from '../record-failure.ts';

export async function mutantsCommand(options: { readonly seeds: string; readonly json?: boolean }): Promise<void> {
  const seeds = Number(options.seeds);
  if (!/^\d+$/.test(options.seeds) || seeds < 1 || seeds > 100_000) throw new UsageError(`bad --seeds "${options.seeds}": expected an integer in 1..100000`);
  const progress = startProgress(MUTANTS.length, 'mutants', !options.json);
  const reports: MutantReport[] = [];
  const stages: Stages[] = [];
  try {
    for (const mutant of MUTANTS) {
      // Two stages, timed apart: the command-level check (store mutants only), then the simulator.
      const check = await checkMutant(mutant);
      const started = performance.now();
      reports.push(...(await runMutants({ seeds, mutants: [mutant] })));
      stages.push({ check, simMs: Math.round(performance.now() - started) });
      progress.tick(mutant.name);
    }
  } finally {
    progress.stop();
  }
  const unwritten = new Set<string>();
  for (const report of reports) {
    if (report.failure === null) continue;
    const writeError = await saveFailureFile(failureFileOf(report), report.failure);
    if (writeError === null) continue;
    unwritten.add(report.name);
    process.stderr.write(`${unwrittenLine(writeError)}\n`);
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
        failureFile: r.failure === null || unwritten.has(r.name) ? null : failureFileOf(r),
        simulatorMs: stages[i]!.simMs,
        check: stages[i]!.check,
        caughtBy: caughtBy(r, stages[i]!),
      })),
    });
  } else {
    printTable(reports, stages, unwritten);
  }
  process.exitCode = reports.every((r, i) => r.caught || stages[i]!.check?.caught === true) ? EXIT.ok : EXIT.violation;
}

interface Stages {
  /** The command-level check's result; null for a mutant whose bug is not in the store. */
  readonly check: StageCatch | null;
  /** Time the simulator stage took (hunting and shrinking). */
  readonly simMs: number;
}

/** The stages that caught the mutant, fastest first. */
function caughtBy(report: MutantReport, stages: Stages): string[] {
  return [...(stages.check?.caught ? ['check'] : []), ...(report.caught ? ['simulator'] : [])];
}

function failureFileOf(report: MutantReport): string {
  return `out/failures/mutant-${report.name}.json`;
}

function checkLine(check: StageCatch | null): string {
  if (check === null) return 'check: not a store bug (controller policy)';
  if (!check.caught) return `check: ${pc.red('not caught')} in ${check.runs} sequences`;
  return `check: caught in ${check.firstFailureMs} ms, ${check.steps} steps  (${check.replay})`;
}

function printTable(reports: ReadonlyArray<MutantReport>, stages: ReadonlyArray<Stages>, unwritten: ReadonlySet<string>): void {
  const width = Math.max(...reports.map((r) => r.name.length));
  for (const r of reports) {
    const status = r.caught ? pc.green('caught ') : pc.red('MISSED ');
    const detail = r.caught
      ? `first caught by ${r.firstFailingScenario} seed ${r.firstFailingSeed}; smallest counterexample: ${r.scenario} seed ${r.failure?.seed}, ${r.violations[0]?.invariant}, ${r.shrunkOperations} operations`
      : `not caught in ${r.seedsTried} seeds`;
    process.stdout.write(`${status}${r.name.padEnd(width)}  ${detail}\n`);
    if (r.replay !== null) process.stdout.write(pc.dim(`        replay: ${r.replay}${unwritten.has(r.name) ? '' : `   (or npx testbed replay ${failureFileOf(r)})`}\n`));
    const stage = stages[reports.indexOf(r)]!;
    process.stdout.write(pc.dim(`        ${checkLine(stage.check)}; simulator: ${stage.simMs} ms\n`));
  }
  const caught = reports.filter((r) => r.caught);
  const seedsToCatch = caught.map((r) => r.firstFailingSeed ?? 0).sort((a, b) => a - b);
  const median = seedsToCatch.length === 0 ? null : seedsToCatch[Math.floor((seedsToCatch.length - 1) / 2)];
  const byCheck = stages.filter((s) => s.check?.caught === true).length;
  const storeMutants = stages.filter((s) => s.check !== null).length;
  process.stdout.write(`${caught.length}/${reports.length} mutants caught by the simulator; median seeds to catch: ${median ?? 'n/a'}; ${byCheck}/${storeMutants} store mutants caught by the command-level check\n`);
}
