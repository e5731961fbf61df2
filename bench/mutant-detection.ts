// Detection speed (docs/ARCHITECTURE.md "Performance targets": every built-in mutant caught within 200
// seeds, median under 20, shrunk to 12 operations or fewer): per mutant, the seeds and wall time
// until the first catch, and the size of the shrunk counterexample, from campaign/mutant-run.ts.

import { MUTANTS, type Mutant } from '../mutants/index.ts';
import { runMutants } from '../campaign/mutant-run.ts';

export interface MutantDetectionOptions {
  /** Seed budget per mutant. */
  readonly seeds: number;
  /** Defaults to the whole catalogue. */
  readonly mutants?: ReadonlyArray<Mutant>;
}

export interface MutantDetection {
  readonly name: string;
  readonly caught: boolean;
  /** Seeds run until the first catch (null: not caught within the budget). */
  readonly seedsToCatch: number | null;
  /** Wall time from the mutant's first seed to its first catch. */
  readonly wallMsToCatch: number | null;
  /** Client operations in the shrunk counterexample, and its client calls. */
  readonly shrunkOperations: number | null;
  readonly shrunkCalls: number | null;
  /** Wall time of the whole report: search, candidate catches and shrinking. */
  readonly wallMsTotal: number;
  readonly scenario: string | null;
}

export async function measureMutantDetection(options: MutantDetectionOptions): Promise<ReadonlyArray<MutantDetection>> {
  const found: MutantDetection[] = [];
  for (const mutant of options.mutants ?? MUTANTS) {
    const start = performance.now();
    let caughtAtMs: number | null = null;
    const [report] = await runMutants({
      mutants: [mutant],
      seeds: options.seeds,
      onProgress: (progress) => {
        if (progress.caught && caughtAtMs === null) caughtAtMs = performance.now() - start;
      },
    });
    if (report === undefined) throw new Error(`no report for mutant ${mutant.name}`);
    found.push({
      name: mutant.name,
      caught: report.caught,
      seedsToCatch: report.caught ? report.seedsTried : null,
      wallMsToCatch: caughtAtMs,
      shrunkOperations: report.shrunkOperations,
      shrunkCalls: report.shrunkCalls,
      wallMsTotal: performance.now() - start,
      scenario: report.scenario,
    });
  }
  return found;
}
