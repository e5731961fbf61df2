// How one race case is run under `testbed race`'s flags: its schedules between the calls'
// statements, every one (explore.ts) or sampled (sample.ts); then, on a store whose calls run
// server-side functions, PCT samples that also step inside those functions (the case's failure
// then says so, and replays stepping inside them too). A case that fails or stays undecided
// between statements is not sampled further.

import { exploreCase, type CaseResult } from './explore.ts';
import type { RaceSession } from './race-session.ts';
import { sampleCase } from './sample.ts';
import type { RaceCase } from './space.ts';

/** How a case's schedules are chosen: every one (a preemption bound aside), or samples. */
export type Strategy =
  | { readonly name: 'exhaustive'; readonly maxSchedules: number; readonly preemptions: number | null }
  | { readonly name: 'random' | 'pct'; readonly maxSchedules: number; readonly seed: number; readonly pctDepth: number };

/** A worker's stores: one set held between statements (or inside functions with --inside-functions), one stepping inside functions for the samples there. */
export interface RaceWorker {
  readonly between: RaceSession;
  readonly inside: RaceSession | null;
}

export interface InsideSamples {
  /** PCT samples per case stepping inside functions (0: none). */
  readonly samples: number;
  readonly seed: number;
  readonly pctDepth: number;
}

export function caseRunner(strategy: Strategy, inside: InsideSamples): (worker: RaceWorker, raceCase: RaceCase) => Promise<CaseResult> {
  const between = (session: RaceSession, raceCase: RaceCase): Promise<CaseResult> =>
    strategy.name === 'exhaustive'
      ? exploreCase(session, raceCase, strategy)
      : sampleCase(session, raceCase, { strategy: strategy.name, seed: strategy.seed, pctDepth: strategy.pctDepth, schedules: strategy.maxSchedules });
  return async (worker, raceCase) => {
    const first = await between(worker.between, raceCase);
    if (worker.inside === null || inside.samples === 0 || first.outcome === 'fail' || first.outcome === 'undecided') return first;
    const sampled = await sampleCase(worker.inside, raceCase, { strategy: 'pct', seed: inside.seed, pctDepth: inside.pctDepth, schedules: inside.samples, onlyInsideFunctions: true });
    const counts = { schedules: first.schedules + sampled.schedules, pruned: first.pruned, beyondBound: first.beyondBound, insideSchedules: sampled.schedules };
    if (sampled.outcome === 'fail' || sampled.outcome === 'undecided') return { ...sampled, ...counts };
    return { ...first, ...counts };
  };
}
