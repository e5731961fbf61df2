// What `sweep` prints: a line per scenario, the totals, the flaky failures, the first failure and
// its replay line, and what the runs reached of the port (cli/commands/sweep.ts).

import pc from 'picocolors';
import type { CoverageSummary, RunCoverage } from '../sim/coverage.ts';
import type { SimRunResult } from '../sim/run.ts';
import { FLAKY_RERUNS_MAX, flakyLine, type FlakyRun } from './flaky-output.ts';

export interface FirstFailure {
  readonly scenario: string;
  readonly seed: number;
  readonly violations: SimRunResult['violations'];
  readonly replay: string;
  /** Null when the file could not be written (`failureFileError` says why). */
  readonly failureFile: string | null;
  readonly failureFileError: string | null;
  /** Whether the failure file holds a shrunk plan (deterministic stores: built-in ones, and user stores that declare it). */
  readonly shrunk: boolean;
  /** Why a failure that came back was not shrunk after all (a smaller plan's failure did not come back); null otherwise. */
  readonly shrinkStopped: string | null;
  /** The shrunk counterexample, printed, not part of the JSON. */
  readonly counterexample: string | null;
  /** Milliseconds from the start of the sweep to the failing run's end (before shrinking). */
  readonly afterMs: number;
}

export interface Tally {
  readonly scenario: string;
  runs: number;
  /** Failing runs, the flaky ones apart. */
  failures: number;
  /** Failing runs that did not fail again when played again (cli/flaky-output.ts): failures found all the same. */
  flaky: number;
  undecided: number;
  /** Runs not played: the store lacks command kinds the scenario sends (sim/capabilities.ts). */
  untested: number;
  /** What the store lacks, the first time a run said so. */
  lacks?: string;
  /** Per invariant, the runs whose verdict left it out: it reads a command the store lacks. */
  unjudged: Record<string, number>;
}

/** An undecided run (its verdict 'unknown', not untested), named with what its checkers could not decide. */
export interface UndecidedRun {
  readonly scenario: string;
  readonly seed: number;
  readonly reason: string;
}

/** Undecided runs a sweep names in its JSON document (the total is `undecided`); the text names fewer. */
export const UNDECIDED_KEPT = 100;
const UNDECIDED_PRINTED = 20;

/**
 * Why a run stayed undecided: a checker that cannot decide reports what it could not judge as its
 * violations (a wait or job cut off by the end of the run before its deadline, a checker that
 * threw). The first of each invariant, and how many more there were.
 */
export function undecidedReason(violations: ReadonlyArray<{ readonly invariant: string; readonly message: string }>): string {
  if (violations.length === 0) return 'no checker said why';
  const first = new Map<string, string>();
  for (const v of violations) if (!first.has(v.invariant)) first.set(v.invariant, v.message);
  const more = violations.length - first.size;
  return `${[...first].map(([invariant, message]) => `${invariant}: ${message}`).join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

export function addCoverage(reached: Map<string, { commands: Set<string>; outcomes: Set<string> }>, scenario: string, coverage: RunCoverage): void {
  const entry = reached.get(scenario) ?? { commands: new Set<string>(), outcomes: new Set<string>() };
  for (const c of coverage.commands) entry.commands.add(c);
  for (const o of coverage.outcomes) entry.outcomes.add(o);
  reached.set(scenario, entry);
}

/** What the workloads reached of the port: a command or outcome never reached is a rule no checker judged. */
export function printCoverage(coverage: CoverageSummary): void {
  const { commands, outcomes } = coverage;
  const missing = (list: ReadonlyArray<string>) => (list.length === 0 ? '' : pc.dim(` (never: ${list.slice(0, 8).join(', ')}${list.length > 8 ? `, +${list.length - 8} more` : ''})`));
  // Pairs listed unreachable (sim/unreachable-outcomes.ts) are named in --json with their reasons.
  const unreachable = outcomes.unreachable.length === 0 ? '' : `, ${outcomes.unreachable.length} listed unreachable (${outcomes.unreachable.map((u) => u.pair).join(', ')})`;
  process.stdout.write(`coverage: ${commands.reached}/${commands.total} command kinds${missing(commands.missing)}, ${outcomes.reached}/${outcomes.total} outcomes${missing(outcomes.missing)}${unreachable}\n`);
}

interface SweepSummary {
  readonly runs: number;
  readonly failures: number;
  readonly flaky: number;
  readonly flakyRuns: ReadonlyArray<FlakyRun>;
  readonly undecided: number;
  readonly undecidedRuns: ReadonlyArray<UndecidedRun>;
  readonly untested: number;
  readonly unjudged: Readonly<Record<string, number>>;
  readonly seedsPerSecond: number;
  readonly stoppedAtFirst: boolean;
  readonly firstFailure: FirstFailure | null;
  readonly scenarios: ReadonlyArray<Tally>;
}

export function printSummary(summary: SweepSummary, seconds: number): void {
  for (const row of summary.scenarios) {
    if (row.untested === row.runs && row.lacks !== undefined) {
      process.stdout.write(`${pc.yellow('--  ')} ${row.scenario.padEnd(34)} untested (${row.lacks})\n`);
      continue;
    }
    // A flaky failure is a failure found: the scenario did break a rule, so it is not "ok".
    const mark = row.failures === 0 && row.flaky === 0 ? pc.green('ok  ') : pc.red('FAIL');
    const flaky = row.flaky > 0 ? `, ${row.flaky} flaky` : '';
    const partly = row.untested > 0 ? `, ${row.untested} untested (${row.lacks})` : '';
    process.stdout.write(`${mark} ${row.scenario.padEnd(34)} ${row.runs} seeds, ${row.failures} failing${flaky}${partly}\n`);
  }
  const stopped = summary.stoppedAtFirst ? ' (stopped at the first failure)' : '';
  const flaky = summary.flaky > 0 ? `, ${summary.flaky} flaky` : '';
  process.stdout.write(`${summary.runs} runs in ${seconds.toFixed(1)} s (${summary.seedsPerSecond} seeds/s): ${summary.failures} failing${flaky}, ${summary.undecided} undecided${summary.untested > 0 ? `, ${summary.untested} untested` : ''}${stopped}\n`);
  const named = summary.undecidedRuns.slice(0, UNDECIDED_PRINTED);
  for (const run of named) process.stdout.write(`${pc.yellow('undecided')}: ${run.scenario} seed ${run.seed} (${run.reason})\n`);
  if (summary.undecided > named.length && named.length > 0) process.stdout.write(`… and ${summary.undecided - named.length} more\n`);
  const notJudged = Object.entries(summary.unjudged).map(([invariant, n]) => `${invariant} in ${n} runs`);
  if (notJudged.length > 0) process.stdout.write(pc.dim(`not judged (the store lacks a command they read): ${notJudged.join(', ')}\n`));
  for (const run of summary.flakyRuns) process.stdout.write(`${flakyLine(run)}\n`);
  if (summary.firstFailure === null && summary.failures > 0 && summary.flakyRuns.length >= FLAKY_RERUNS_MAX) {
    process.stdout.write(`${summary.failures} failing runs were not played again or filed: the ${FLAKY_RERUNS_MAX} failures before them did not come back\n`);
  }
  if (summary.firstFailure !== null) printFirstFailure(summary.firstFailure);
}

function printFirstFailure(first: FirstFailure): void {
  process.stdout.write(`${pc.red('first failure')} after ${(first.afterMs / 1000).toFixed(1)} s: ${first.scenario} seed ${first.seed}: ${first.violations.slice(0, 3).map((v) => `${v.invariant}: ${v.message}`).join('; ')}${first.violations.length > 3 ? ` (+${first.violations.length - 3} more)` : ''}\n`);
  process.stdout.write(`replay: ${first.replay}\n`);
  if (first.failureFile !== null) process.stdout.write(`failure file: ${first.failureFile}\n`);
  if (first.shrinkStopped !== null) process.stdout.write(`${pc.yellow('not shrunk')}: ${first.shrinkStopped}\n`);
  if (first.counterexample !== null) process.stdout.write(`\n${first.counterexample}\n`);
}
