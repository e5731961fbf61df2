// A failing run played again, on a fresh store, before anything is built on it (a shrunk plan, a
// failure file that must replay). The built-in stores answer alike on every run, so the failure
// comes back. A user's store may not, even when it declares `capabilities.deterministic`: a real
// Redis, the wall clock, or state kept across runs can make the second run pass. Such a failure
// is flaky. The first run did break a rule, so it is still a failure found; it only cannot be
// shrunk, and its replay need not show it. That is an outcome to report, so it is returned as
// data, never thrown (a throw here once ended a whole sweep with no seed and no file).

import { strict as assert } from 'node:assert';
import type { RunResult } from '../sim/run-result.ts';
import { violates } from './shrink.ts';

/** What a failing run showed when it was played again. */
type Rerun<R extends RunResult = RunResult> =
  /** The re-run violated the same invariant: the failure can be shrunk and replayed. */
  | { readonly kind: 'reproduced'; readonly result: R }
  /** It did not: the first run broke `invariant`, the second run of the same plan did not. */
  | { readonly kind: 'flaky'; readonly invariant: string; readonly rerun: R };

/**
 * Plays a failing run again (`playAgain`: the same plan, seed and store, a fresh store instance)
 * and says whether it violated the invariant the first run violated first, the one a shrinker
 * keeps. An error of the re-run itself (a store that cannot be reached) is not a verdict, and
 * propagates.
 */
export async function rerunFailure<R extends RunResult>(first: Pick<RunResult, 'valid' | 'violations'>, playAgain: () => Promise<R>): Promise<Rerun<R>> {
  assert.equal(first.valid, false, 'only a failing run is played again');
  const invariant = first.violations[0]?.invariant;
  assert.ok(invariant !== undefined, 'a failing run names the invariant it violated');
  const result = await playAgain();
  return violates(result, invariant) ? { kind: 'reproduced', result } : { kind: 'flaky', invariant, rerun: result };
}
