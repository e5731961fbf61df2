// `testbed mutants`: every built-in mutant against its scenarios; the testbed passes when every
// one is caught. Each catch is shrunk and written to out/failures/ with its replay line.

import pc from 'picocolors';
import { MUTANTS } from '../../adapters/mutants/index.ts';
import { writeFailureFile } from '../../sim/failure-file.ts';
import { runMutants, type MutantReport } from '../../sim/mutant-run.ts';
import { EXIT, UsageError } from '../errors.ts';
import { printJson } from '../format.ts';
import { startProgress } from '../progress.ts';

export async function mutantsCommand(options: { readonly seeds: string; readonly json?: boolean }): Promise<void> {
  const seeds = Number(options.seeds);
  if (!/^\d+$/.test(options.seeds) || seeds < 1 || seeds > 100_000) throw new UsageError(`bad --seeds "${options.seeds}": expected an integer in 1..100000`);
  const progress = startProgress(MUTANTS.length, 'mutants', !options.json);
  let current = '';
  const reports = await runMutants({
    seeds,
    onProgress: (p) => {
      if (p.mutant !== current) {
        if (current !== '') progress.tick(current);
        current = p.mutant;
      }
    },
  });
  progress.stop();
  for (const report of reports) {
    if (report.failure !== null) await writeFailureFile(failureFileOf(report), report.failure);
  }
  if (options.json) {
    printJson({
      mutants: reports.map((r) => ({
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
      })),
    });
  } else {
    printTable(reports);
  }
  process.exitCode = reports.every((r) => r.caught) ? EXIT.ok : EXIT.violation;
}

function failureFileOf(report: MutantReport): string {
  return `out/failures/mutant-${report.name}.json`;
}

function printTable(reports: ReadonlyArray<MutantReport>): void {
  const width = Math.max(...reports.map((r) => r.name.length));
  for (const r of reports) {
    const status = r.caught ? pc.green('caught ') : pc.red('MISSED ');
    const detail = r.caught
      ? `first caught by ${r.firstFailingScenario} seed ${r.firstFailingSeed}; smallest counterexample: ${r.scenario} seed ${r.failure?.seed}, ${r.violations[0]?.invariant}, ${r.shrunkOperations} operations`
      : `not caught in ${r.seedsTried} seeds`;
    process.stdout.write(`${status}${r.name.padEnd(width)}  ${detail}\n`);
    if (r.replay !== null) process.stdout.write(pc.dim(`        replay: ${r.replay}   (or npx testbed replay ${failureFileOf(r)})\n`));
  }
  const caught = reports.filter((r) => r.caught);
  const seedsToCatch = caught.map((r) => r.firstFailingSeed ?? 0).sort((a, b) => a - b);
  const median = seedsToCatch.length === 0 ? null : seedsToCatch[Math.floor((seedsToCatch.length - 1) / 2)];
  process.stdout.write(`${caught.length}/${reports.length} mutants caught; median seeds to catch: ${median ?? 'n/a'}\n`);
}
