// How `run` and `sweep` name a flaky failure: a run that violated an invariant, whose plan, played
// again to be shrunk, did not (campaign/flaky-failure.ts). It is a failure found (exit 1): the
// first run did break the rule. The line says so, and says what the re-run found instead, so a
// reader can tell a store that answers otherwise on a second run from a testbed that lost a bug.

import pc from 'picocolors';
import type { RunResult } from '../sim/run-result.ts';

/** What the re-run of a flaky failure's plan found: its verdict, violations and trace hash (its history is in the failure file). */
interface RerunSummary {
  readonly valid: RunResult['valid'];
  readonly violations: ReadonlyArray<{ readonly invariant: string; readonly message: string }>;
  readonly traceHash: string;
}

/** A flaky failure as `run --json` and `sweep --json` name it (`flakyRuns`). */
export interface FlakyRun {
  readonly scenario: string;
  readonly seed: number;
  /** The invariant the first run violated (its first violation's), which the re-run did not. */
  readonly invariant: string;
  /** The first run's violations. */
  readonly violations: ReadonlyArray<{ readonly invariant: string; readonly message: string }>;
  readonly rerun: RerunSummary;
  /** The line that plays the seed again (which, the failure being flaky, need not fail). */
  readonly replay: string;
  /** Null when the failure file could not be written (`failureFileError` says why). */
  readonly failureFile: string | null;
  readonly failureFileError: string | null;
}

/**
 * Flaky failures a sweep plays again, files and names. Past them it stops playing failures again:
 * a store that fails this often and never twice alike has made its point, and each re-run costs a
 * run and a file.
 */
export const FLAKY_RERUNS_MAX = 20;

export function rerunSummaryOf(rerun: RunResult): RerunSummary {
  return { valid: rerun.valid, violations: rerun.violations.map((v) => ({ invariant: v.invariant, message: v.message })), traceHash: rerun.traceHash };
}

/** What the re-run found, in a few words. */
export function rerunFound(rerun: Pick<RerunSummary, 'valid' | 'violations'>): string {
  if (rerun.valid === true) return 'no violation';
  if (rerun.valid === 'unknown') return 'undecided';
  return `only ${[...new Set(rerun.violations.map((v) => v.invariant))].join(', ')}`;
}

/** The one line that names a flaky failure. */
export function flakyLine(run: FlakyRun): string {
  const first = run.violations.find((v) => v.invariant === run.invariant);
  const what = first === undefined ? run.invariant : `${run.invariant}: ${first.message}`;
  const file = run.failureFile !== null ? `; failure file: ${run.failureFile}` : run.failureFileError !== null ? `; no failure file (${run.failureFileError})` : '';
  return `${pc.red('flaky')}: ${run.scenario} seed ${run.seed}: the first run violated ${what}; the re-run of the same plan did not show it (${rerunFound(run.rerun)}): still a failure found, not shrunk${file}`;
}
