// `testbed replay <failure.json>`: re-executes a stored plan exactly and checks that it gives the
// same trace hash; a different hash means the replay was not exact (exit 3).

import pc from 'picocolors';
import { FailureFileError, readFailureFile, replayFailure } from '../../sim/failure-file.ts';
import { resolveAdapter, type ResolvedAdapter } from '../adapters.ts';
import { startRealRun } from '../real-faults.ts';
import { EXIT, UsageError } from '../errors.ts';
import { formatRun, printJson, runJson } from '../format.ts';

export async function replayCommand(file: string, options: { readonly json?: boolean }): Promise<void> {
  let failure;
  try {
    failure = await readFailureFile(file);
  } catch (error) {
    if (error instanceof FailureFileError) throw new UsageError(error.message);
    throw error;
  }
  // A real-fault failure replays on a fresh primary/replica pair with the same real actions.
  const real = failure.faults === 'real' ? await startRealRun(failure.seed) : undefined;
  const adapter: ResolvedAdapter = real === undefined ? await resolveAdapter(failure.adapter) : { name: 'postgres', store: real.store, close: () => real.close() };
  let result;
  try {
    result = await replayFailure(failure, adapter.store, real?.driver);
  } finally {
    await adapter.close();
  }
  const exact = result.traceHash === failure.traceHash;
  if (options.json) {
    printJson({ ...runJson(result), expectedTraceHash: failure.traceHash, exact });
  } else {
    process.stdout.write(`${formatRun(result)}\n`);
    process.stdout.write(exact ? pc.green('trace hash matches the failure file\n') : pc.yellow(`trace hash differs from the failure file (${failure.traceHash.slice(0, 16)})\n`));
  }
  process.exitCode = !exact ? EXIT.undecided : result.valid === false ? EXIT.violation : result.valid === true ? EXIT.ok : EXIT.undecided;
}
