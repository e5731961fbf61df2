// The end of a coordinated run that still owes work. When the next event lies past the run's end,
// the run asks the same rule that judges it (jobs-complete's owedUntil, seed 001 §283) for the
// latest deadline of a job the store accepted and has not finished. If that lies later, the run goes
// on to it with no plan steps left, so the scheduler dispatches what is queued until each owed job
// finishes or its deadline passes, and the rule decides instead of leaving the run undecided. The
// drain lasts at most DRAIN_BOUNDS liveness bounds past the horizon. With nothing left on the
// agenda the end moves to the deadline all the same, so a job nothing can finish is judged missed.

import type { History } from '../model/history.ts';
import { owedUntil } from '../model/checkers/jobs-complete.ts';
import type { Plan } from './plan.ts';

/** How many liveness bounds past its horizon a run may drain while jobs are owed. */
const DRAIN_BOUNDS = 4;

/** The run's new end when it must drain past `endMs`, or null when it ends there. */
export function drainedEnd(history: History, plan: Pick<Plan, 'horizonMs' | 'livenessBoundMs'>, endMs: number): number | null {
  const until = owedUntil(history);
  const limit = plan.horizonMs + (1 + DRAIN_BOUNDS) * plan.livenessBoundMs;
  if (until === null || until <= endMs || endMs >= limit) return null;
  return Math.min(until, limit);
}
