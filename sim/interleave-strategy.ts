// The seeded choice of which session's held statement goes next (controlled interleaving,
// docs/ARCHITECTURE.md "Controlled interleaving"), one chooser per batch of concurrent calls:
// - random: a random walk, every held session equally likely at every step;
// - pct: a PCT schedule (Burckhardt et al., "A Randomized Scheduler with Probabilistic Guarantees
//   of Finding Bugs", 2010): the sessions get distinct random priorities, the highest-priority
//   held session always goes next, and at `depth - 1` random steps the session about to go is
//   dropped below every other. A bug that needs d ordering constraints is found with probability
//   at least 1/(n·k^(d-1)) per batch (n sessions, k steps). The change points fall on scheduling
//   points: each choice of the next statement, or, stepping inside functions, of the next point.

import type { Chooser } from '../adapters/interleaving.ts';
import type { Stream } from './prng.ts';

/** PCT's bug depth by default: two change points, enough for the check-then-act races of two sessions. */
export const PCT_DEPTH = 3;
/**
 * Steps a call is expected to take, to place PCT's change points over the batch: its statements,
 * or, stepping inside server-side functions too, its points (the built-in store's calls pass
 * 10 to 25 of them).
 */
export const STEPS_PER_CALL = 4;
export const STEPS_PER_CALL_INSIDE_FUNCTIONS = 16;

/**
 * `depth`: PCT's bug depth d (d - 1 change points). A candidate that is not among `sessions` has
 * the lowest priority.
 */
export function chooserFor(strategy: 'random' | 'pct', stream: Stream, sessions: ReadonlyArray<string>, stepsPerCall = STEPS_PER_CALL, depth = PCT_DEPTH): Chooser {
  if (strategy === 'random') return (candidates) => stream.int(0, candidates.length - 1);
  const priority = new Map<string, number>();
  const order = [...sessions];
  // A Fisher-Yates shuffle: distinct priorities n..1.
  for (let i = order.length - 1; i > 0; i--) {
    const j = stream.int(0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  order.forEach((session, i) => priority.set(session, order.length - i));
  const steps = Math.max(1, sessions.length * stepsPerCall);
  // Distinct change points (as many as there are steps to place them at).
  const changeAt = new Map<number, number>();
  for (let c = 1; c < depth && changeAt.size < steps; c++) {
    let at = stream.int(1, steps);
    while (changeAt.has(at)) at = (at % steps) + 1;
    changeAt.set(at, -c);
  }
  let step = 0;
  const rank = (session: string): number => priority.get(session) ?? -Infinity;
  const best = (candidates: ReadonlyArray<string>): number => {
    let index = 0;
    for (let i = 1; i < candidates.length; i++) if (rank(candidates[i]!) > rank(candidates[index]!)) index = i;
    return index;
  };
  return (candidates) => {
    step++;
    const low = changeAt.get(step);
    if (low !== undefined) priority.set(candidates[best(candidates)]!, low);
    return best(candidates);
  };
}
