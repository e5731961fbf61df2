// What a run's page shows (`testbed run --report`), from the run's history alone, whatever store
// ran it: for a failing run, the shrunk counterexample (the shrunk plan's run, up to the
// violation), or the run as it ran when it was not shrunk, with the reason; for a passing run,
// the whole run. Its steps are the numbered steps of the printed counterexample
// (campaign/counterexample-rows.ts), the failing one found as the printed one is.

import { counterexampleOf } from '../campaign/counterexample.ts';
import { failingStep, stepRows, type StepRow } from '../campaign/counterexample-rows.ts';
import type { Violation } from '../model/verdict.ts';
import type { RunResult } from '../sim/run-result.ts';
import { leaseTimeline, type LeaseTimeline } from './lease-timeline.ts';
import { replayLine } from './replay-line.ts';

/** How a failing run came to be shown. */
export type ShownFailure =
  | { readonly kind: 'shrunk'; readonly run: RunResult; readonly originalSteps: number }
  | { readonly kind: 'as-ran'; readonly why: string };

export interface RunReportInput {
  /** The run as it ran. */
  readonly run: RunResult;
  /** For a failing run: the shrunk run, or why the run is shown as it ran. */
  readonly failure?: ShownFailure;
  /** Replay lines beyond the run's own (the failure file's). */
  readonly replays?: ReadonlyArray<string>;
}

export type RunReportVerdict = 'failed' | 'passed' | 'undecided' | 'untested';

export interface RunReport {
  readonly run: RunResult;
  readonly verdict: RunReportVerdict;
  /** One sentence on what the timeline holds: the shrunk counterexample, the run as it ran (and why), or the whole passing run. */
  readonly shows: string;
  readonly shrunk: boolean;
  readonly steps: ReadonlyArray<StepRow>;
  /** The step the first violation names; undefined on a passing run or when it names no event. */
  readonly failing: StepRow | undefined;
  /** The violations the shown history holds. */
  readonly violations: ReadonlyArray<Violation>;
  readonly timeline: LeaseTimeline;
  /** Events of the shown run after the violation, left out. */
  readonly omittedEvents: number;
  readonly replays: ReadonlyArray<string>;
}

export function runReport(input: RunReportInput): RunReport {
  const { run } = input;
  const verdict: RunReportVerdict = run.untested !== undefined ? 'untested' : run.valid === true ? 'passed' : run.valid === false ? 'failed' : 'undecided';
  const replays = [replayLine(run.replay), ...(input.replays ?? []).map(replayLine)];
  const invariant = run.violations[0]?.invariant;
  if (verdict !== 'failed' || invariant === undefined) {
    const steps = stepRows(run.history, run.storeTimes);
    return { run, verdict, shows: wholeRun(verdict, run), shrunk: false, steps, failing: undefined, violations: run.violations, timeline: leaseTimeline(run), omittedEvents: 0, replays };
  }
  const failure = input.failure ?? { kind: 'as-ran', why: 'it was not shrunk' };
  const shown = failure.kind === 'shrunk' ? failure.run : run;
  const counterexample = counterexampleOf(shown, invariant);
  const steps = stepRows(counterexample.history, shown.storeTimes);
  const operations = steps.filter((s) => s.kind === 'operation').length;
  const asRan = `the run as it ran had ${run.operations} operations and ${run.violations.length} ${run.violations.length === 1 ? 'violation' : 'violations'}`;
  const shows =
    failure.kind === 'shrunk'
      ? `The shrunk counterexample: ${operations} operations up to the violation of ${invariant}, shrunk from ${failure.originalSteps} plan steps (${asRan}).`
      : `Not shrunk: ${failure.why}. This is the run as it ran, up to the violation of ${invariant}: ${operations} operations (${asRan}).`;
  // The timeline spans the counterexample, not the whole run it was cut from, with a margin either side.
  const first = counterexample.history[0]?.time ?? 0;
  const last = counterexample.history.at(-1)?.time ?? 0;
  const margin = Math.max(10, Math.round((last - first) / 10));
  const cut = { ...shown, history: counterexample.history, violations: counterexample.violations, simulatedMs: last + margin };
  return {
    run,
    verdict,
    shows,
    shrunk: failure.kind === 'shrunk',
    steps,
    failing: failingStep(steps, counterexample.violations[0]),
    violations: counterexample.violations,
    timeline: { ...leaseTimeline(cut), startTime: Math.max(0, first - margin) },
    omittedEvents: counterexample.omittedEvents,
    replays,
  };
}

function wholeRun(verdict: RunReportVerdict, run: RunResult): string {
  if (verdict === 'untested') return `Untested: ${run.untested}. Nothing ran.`;
  const what = `The whole run: ${run.operations} operations, ${run.simulatedMs} simulated ms.`;
  return verdict === 'passed' ? `${what} No invariant was violated.` : `${what} The checkers could not decide.`;
}
