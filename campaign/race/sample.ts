// Sampled schedules of one race case (`testbed race --strategy random|pct`), for spaces too large
// to exhaust (triples, stepping inside functions): the case's calls are the conflict-directed
// ones of commands.ts, so every sample meets a conflict; each schedule is chosen by a seeded
// chooser (sim/interleave-strategy.ts) and judged as an explored one is.
// - random: a uniform random walk over the sessions that can go on, at every scheduling point.
// - pct: PCT (Burckhardt et al. 2010). The first schedule runs every step of the first candidate
//   and measures the case's k scheduling points; each later one draws priorities and d - 1
//   change points over those k points, so a bug of depth d shows in a sample with probability at
//   least 1/(n·k^(d-1)) (n calls).
// A case's samples are drawn from streams named by the case (kinds, state, actors) and the
// sample's number under `--seed`, so the same seed gives the same schedules whatever else runs.

import { CLOCK_SESSION, type Chooser } from '../../adapters/interleaving.ts';
import { chooserFor } from '../../sim/interleave-strategy.ts';
import { streamFor } from '../../sim/prng.ts';
import { runAndJudge, sessionsOf, type CaseResult } from './explore.ts';
import { RaceSetupError, type RaceSession } from './race-session.ts';
import type { RaceCase } from './space.ts';

export interface Sampling {
  readonly strategy: 'random' | 'pct';
  readonly seed: number;
  /** PCT's bug depth d (ignored by random). */
  readonly pctDepth: number;
  /** Schedules per case. */
  readonly schedules: number;
  /**
   * Stepping inside functions after an exploration between statements: a case whose first
   * schedule stops at no point inside a function has nothing more to sample.
   */
  readonly onlyInsideFunctions?: boolean;
}

/** Whether a schedule stopped inside a server-side function (an entry `s1@12`). */
const POINT = /@\d+$/;

/** Always the first candidate: the schedule PCT measures a case's scheduling points on. */
const firstCandidate: Chooser = () => 0;

export async function sampleCase(session: RaceSession, raceCase: RaceCase, sampling: Sampling): Promise<CaseResult> {
  const sessions = [...sessionsOf(raceCase.kinds.length), CLOCK_SESSION];
  let schedules = 0;
  let undecided: string | null = null;
  let stepsPerCall = 1;
  const counts = () => ({ schedules, pruned: 0, beyondBound: 0 });
  try {
    for (let i = 0; i < sampling.schedules; i++) {
      const measuring = sampling.strategy === 'pct' && i === 0;
      const stream = streamFor(sampling.seed, `race/${raceCase.kinds.join('+')}/${raceCase.state.name}/${raceCase.actors}/${i}`);
      const choose = measuring ? firstCandidate : chooserFor(sampling.strategy, stream, sessions, stepsPerCall, sampling.pctDepth);
      const { verdict, run } = await runAndJudge(session, raceCase, choose);
      schedules++;
      if (measuring) stepsPerCall = Math.max(1, Math.ceil(run.batch.schedule.length / raceCase.kinds.length));
      if (verdict.kind === 'fail') return { outcome: 'fail', ...counts(), failure: { verdict, run, ...(sampling.onlyInsideFunctions === true ? { insideFunctions: true } : {}) } };
      if (verdict.kind === 'undecided') undecided ??= verdict.message ?? 'no verdict';
      if (sampling.onlyInsideFunctions === true && i === 0 && !run.batch.schedule.some((s) => POINT.test(s))) break;
    }
  } catch (error) {
    if (error instanceof RaceSetupError) return { outcome: 'fail', ...counts(), failure: { verdict: { kind: 'fail', rule: 'serial', message: error.message }, run: null } };
    throw error;
  }
  return undecided === null ? { outcome: 'sampled', ...counts() } : { outcome: 'undecided', ...counts(), why: undecided };
}
