// `testbed report`: re-render the gate report from stored results, running nothing.

import { GateInputError, loadResults, writeReports } from '../../reports/index.ts';
import { UsageError } from '../errors.ts';
import { checkOutDir } from '../out-dir.ts';
import type { ReportOptions } from './output-flags.ts';

export async function reportCommand(file: string, options: ReportOptions): Promise<void> {
  let input;
  try {
    input = await loadResults(file);
  } catch (error) {
    if (error instanceof GateInputError) throw new UsageError(`${file}: not valid results: ${error.problems.slice(0, 3).join('; ')}`);
    throw new UsageError(`cannot read results ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  await checkOutDir(options.out);
  const written = await writeReports(input, options.out);
  process.stdout.write(`report written: ${written.files.join(', ')}\n`);
}
