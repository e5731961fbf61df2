// Schedules per second of the race stage (campaign/race/) on the built-in PostgreSQL store: every
// case of a few lease kinds explored to the end, one case at a time on one set of stores. Each
// schedule resets the store to the case's starting state, runs the calls statement by statement
// through the gate and reads the store back for the final-state check.

import { ALL_COMMAND_KINDS } from '../campaign/check/command-arbitraries.ts';
import { exploreCase, sessionsOf } from '../campaign/race/explore.ts';
import { loadClassifier } from '../campaign/race/independence.ts';
import { RaceSession } from '../campaign/race/race-session.ts';
import { raceCases } from '../campaign/race/space.ts';
import { resolveAdapter } from '../backends/index.ts';
import type { CommandKind } from '../model/commands.ts';

export interface RaceThroughput {
  readonly kinds: ReadonlyArray<CommandKind>;
  readonly cases: number;
  readonly schedules: number;
  readonly prunedBranches: number;
  readonly schedulesPerSecond: number;
}

export async function measureRaceThroughput(kinds: ReadonlyArray<CommandKind>): Promise<RaceThroughput> {
  await loadClassifier();
  const adapter = await resolveAdapter('postgres', { interleave: 'random' });
  const session = new RaceSession(adapter.interleave!, sessionsOf(2));
  try {
    const cases = raceCases(kinds, 2, ALL_COMMAND_KINDS);
    let schedules = 0;
    let prunedBranches = 0;
    const started = performance.now();
    for (const raceCase of cases) {
      const result = await exploreCase(session, raceCase, { maxSchedules: 5000, preemptions: null });
      if (result.outcome !== 'pass') throw new Error(`the built-in store did not pass ${raceCase.kinds.join('+')} from ${raceCase.state.name}: ${result.outcome}`);
      schedules += result.schedules;
      prunedBranches += result.pruned;
    }
    const seconds = (performance.now() - started) / 1000;
    return { kinds, cases: cases.length, schedules, prunedBranches, schedulesPerSecond: schedules / seconds };
  } finally {
    await session.close();
    await adapter.close();
  }
}
