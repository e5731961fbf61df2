// What a sweep keeps of its runs as it takes them in order (cli/commands/sweep.ts): per scenario,
// the counts and what the runs reached of the port; by name, the first undecided runs and every
// flaky failure. Runs are dropped once tallied, so a long sweep holds counts, not histories.

import { strict as assert } from 'node:assert';
import type { Scenario } from '../scenarios/index.ts';
import { summarizeCoverage, type CoverageSummary, type RunCoverage } from '../sim/coverage.ts';
import { unreachableFor } from '../sim/unreachable-outcomes.ts';
import type { RenewalKind } from '../model/state.ts';
import type { SweepRun } from '../campaign/sweep-pool.ts';
import type { FlakyRun } from './flaky-output.ts';
import { addCoverage, UNDECIDED_KEPT, undecidedReason, type Tally, type UndecidedRun } from './sweep-output.ts';

export interface Tallies {
  readonly perScenario: Tally[];
  /** What each scenario's runs reached together (kept per scenario, not per run: sweeps can be long). */
  readonly reached: Map<string, { commands: Set<string>; outcomes: Set<string> }>;
  /** The first UNDECIDED_KEPT undecided runs, in the sweep's order (the count is in the tallies). */
  readonly undecidedRuns: UndecidedRun[];
  /** The failures that did not come back when played again, in the sweep's order (at most FLAKY_RERUNS_MAX). */
  readonly flakyRuns: FlakyRun[];
  /** The command kinds the store declares (`capabilities.commands`), from the first run that says; null: every kind. */
  declared: ReadonlyArray<string> | null;
  /** What the store's renewals do (`capabilities.renewal`), from the first run that says. */
  renewal: RenewalKind;
}

export function startTallies(scenarios: ReadonlyArray<Scenario>): Tallies {
  return {
    perScenario: scenarios.map((scenario) => ({ scenario: scenario.name, runs: 0, failures: 0, flaky: 0, undecided: 0, untested: 0, unjudged: {} })),
    reached: new Map(),
    undecidedRuns: [],
    flakyRuns: [],
    declared: null,
    renewal: 'extends',
  };
}

/** What the tallies read of a run: the same on this thread (SimRunResult) and from a worker (SweepRun). */
type TalliedRun = Pick<SweepRun, 'scenario' | 'seed' | 'valid' | 'violations' | 'untested' | 'unjudged'> & { readonly storeCommands?: ReadonlyArray<string>; readonly storeRenewal?: 'confirms' };

/** Adds one run, taken in the sweep's order, to the tallies of scenario `index`; `coverage` is null for a run not played. */
export function tallyRun(tallies: Tallies, index: number, run: TalliedRun, coverage: RunCoverage | null): Tally {
  const tally = tallies.perScenario[index]!;
  tally.runs++;
  if (run.storeCommands !== undefined) tallies.declared ??= run.storeCommands;
  if (run.storeRenewal !== undefined) tallies.renewal = run.storeRenewal;
  if (coverage !== null) addCoverage(tallies.reached, tally.scenario, coverage);
  countUnknown(tally, run);
  if (run.valid === 'unknown' && run.untested === undefined && tallies.undecidedRuns.length < UNDECIDED_KEPT) {
    tallies.undecidedRuns.push({ scenario: run.scenario, seed: run.seed, reason: undecidedReason(run.violations) });
  }
  if (run.valid === false) tally.failures++;
  return tally;
}

/**
 * A failure of scenario `index`, already tallied as failing, that did not come back when played
 * again: it moves from the failures to the flaky count, and is named.
 */
export function countFlaky(tallies: Tallies, index: number, flaky: FlakyRun): void {
  const tally = tallies.perScenario[index]!;
  assert.ok(tally.failures > 0, `${flaky.scenario} seed ${flaky.seed}: a flaky failure is tallied as a failure first`);
  assert.equal(tally.scenario, flaky.scenario, `${flaky.scenario} seed ${flaky.seed} is counted under ${tally.scenario}`);
  tally.failures--;
  tally.flaky++;
  tallies.flakyRuns.push(flaky);
}

export function coverageOfTallies(tallies: Tallies): CoverageSummary {
  const runs = [...tallies.reached].map(([name, c]) => ({ scenario: name, coverage: { commands: [...c.commands], outcomes: [...c.outcomes] } }));
  return summarizeCoverage(runs, { ...(tallies.declared === null ? {} : { declared: tallies.declared }), unreachable: unreachableFor(tallies.renewal) });
}

/** An undecided run, or one the store could not be judged on (untested, not undecided). */
function countUnknown(tally: Tally, run: TalliedRun): void {
  for (const { invariant } of run.unjudged ?? []) tally.unjudged[invariant] = (tally.unjudged[invariant] ?? 0) + 1;
  if (run.valid === false) return;
  if (run.untested !== undefined) {
    tally.untested++;
    tally.lacks ??= run.untested;
  } else if (run.valid === 'unknown') {
    tally.undecided++;
  }
}
