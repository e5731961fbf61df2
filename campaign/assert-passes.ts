// For tests: a run that did not pass becomes an error whose message is the counterexample, as
// numbered steps with the violations and the replay line (campaign/counterexample.ts `renderCounterexample`).

import type { RunResult } from '../sim/run-result.ts';
import { renderCounterexample } from './counterexample.ts';

/** A run that showed a violation (`valid: false`) or that a checker could not decide (`'unknown'`). */
export class RunFailedError extends Error {
  constructor(readonly result: RunResult) {
    const invariant = result.violations[0]?.invariant ?? '';
    const verdict = result.valid === false ? 'violated' : 'could not be decided';
    super(`${result.scenario} seed ${result.seed} on ${result.adapter}: ${invariant} ${verdict}\n${renderCounterexample(result, { invariant })}`);
    this.name = 'RunFailedError';
  }
}

/** Throws a `RunFailedError` unless the run passed every checker. */
export function assertPasses(result: RunResult): void {
  if (result.valid !== true) throw new RunFailedError(result);
}
