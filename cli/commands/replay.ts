// `testbed replay <failure.json>`: re-executes a stored plan exactly and checks that it gives the
// same trace hash; a different hash means the replay was not exact (exit 3).

import pc from 'picocolors';
import { FailureFileError, readFailureFile, replayFailure } from '../../sim/failure-file.ts';
import { resolveAdapter } from '../adapters.ts';
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
  const adapter = await resolveAdapter(failure.adapter);
  let result;
  try {
    result = await replayFailure(failure, adapter.store);
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
