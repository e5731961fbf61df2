// Every schedule of one race case (schedule-tree.ts), each judged (judge.ts), until one fails, the
// tree is exhausted, or the case's schedule budget is spent.

import type { Chooser } from '../../adapters/interleaving.ts';
import type { Command } from '../../model/commands.ts';
import { judgeSchedule, type RaceVerdict } from './judge.ts';
import { raceHistory } from './race-history.ts';
import { RaceSetupError, type RaceSession, type ScheduleRun } from './race-session.ts';
import { ScheduleNondeterminismError, ScheduleTree } from './schedule-tree.ts';
import type { RaceCase } from './space.ts';

export interface RaceFailure {
  readonly verdict: RaceVerdict;
  readonly run: ScheduleRun | null;
  /** The schedule stepped inside server-side functions (its replay must too). */
  readonly insideFunctions?: boolean;
}

export interface CaseResult {
  /** `sampled`: every sampled schedule passed (sample.ts); `pass`: every schedule of the case did. */
  readonly outcome: 'pass' | 'fail' | 'undecided' | 'bounded' | 'sampled';
  readonly schedules: number;
  readonly pruned: number;
  readonly beyondBound: number;
  /** Of `schedules`, those sampled stepping inside functions after the case's exploration between statements. */
  readonly insideSchedules?: number;
  readonly failure?: RaceFailure;
  /** Why no verdict (undecided). */
  readonly why?: string;
}

export function sessionsOf(depth: number): string[] {
  return Array.from({ length: depth }, (_, i) => `s${i + 1}`);
}

/** Runs one schedule of `raceCase` chosen by `choose` and judges it. */
export async function runAndJudge(session: RaceSession, raceCase: RaceCase, choose: Chooser): Promise<{ verdict: RaceVerdict; run: ScheduleRun }> {
  const run = await session.run(raceCase, choose);
  const sessions = sessionsOf(raceCase.kinds.length);
  const calls = raceCase.commands.map((command: Command, i) => ({ session: sessions[i]!, command }));
  const fences = session.fences;
  const history = raceHistory(raceCase, sessions, run.batch.settled, fences);
  const verdict = judgeSchedule(raceCase.built.model, calls, run.batch.settled, run.view, Math.max(...raceCase.arrivals), history, fences);
  return { verdict, run };
}

export interface ExploreLimits {
  /** Schedules one case may run before it is reported as bounded. */
  readonly maxSchedules: number;
  /** Preemptions a schedule may make (null: every schedule). */
  readonly preemptions: number | null;
}

export async function exploreCase(session: RaceSession, raceCase: RaceCase, limits: ExploreLimits): Promise<CaseResult> {
  const tree = new ScheduleTree(limits.preemptions);
  const maxSchedules = limits.maxSchedules;
  let undecided: string | null = null;
  try {
    do {
      if (tree.counts().schedules >= maxSchedules) return { outcome: 'bounded', ...tree.counts() };
      tree.startRun();
      const { verdict, run } = await runAndJudge(session, raceCase, tree.choose);
      tree.endRun();
      if (verdict.kind === 'fail') return { outcome: 'fail', ...tree.counts(), failure: { verdict, run } };
      if (verdict.kind === 'undecided') undecided ??= verdict.message ?? 'no verdict';
    } while (tree.advance());
  } catch (error) {
    if (error instanceof RaceSetupError) return { outcome: 'fail', ...tree.counts(), failure: { verdict: { kind: 'fail', rule: 'serial', message: error.message }, run: null } };
    if (error instanceof ScheduleNondeterminismError) {
      // The batch may have been left with calls running: the next case opens fresh stores.
      await session.close();
      return { outcome: 'undecided', ...tree.counts(), why: `the schedule did not replay: ${error.message}` };
    }
    throw error;
  }
  return undecided === null ? { outcome: 'pass', ...tree.counts() } : { outcome: 'undecided', ...tree.counts(), why: undecided };
}

/** A chooser that replays a recorded schedule (entries `s1`, `s1@12`, `@clock`), failing when the run offers otherwise. */
export function replayChooser(schedule: ReadonlyArray<string>): Chooser {
  let at = 0;
  return (names) => {
    const entry = schedule[at++];
    const name = entry?.replace(/@\d+$/, '');
    const i = name === undefined ? -1 : names.indexOf(name);
    if (i < 0) throw new ScheduleNondeterminismError(`step ${at} of the recorded schedule is ${entry ?? '(none)'}, but the run offered ${names.join(', ')}`);
    return i;
  };
}
