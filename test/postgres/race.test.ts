// The race stage on the real store (campaign/race/), the `sql-races-exhaustive` gate suite: every
// schedule of every case of each SQL race mutant's race kinds passes on the built-in store, and
// every SQL race mutant the catalogue says race catches fails a case of its race kinds (000 §24,
// §25–§30, §43–§49, §93–§97; 001 §84–§85), with a schedule that replays with the same trace hash.

import { beforeAll, describe, expect, test } from 'vitest';
import { postgresInterleaving } from '../../adapters/postgres/interleave/index.ts';
import { findPostgresMutant, mutantStoreOptions, POSTGRES_MUTANTS } from '../../mutants/sql/index.ts';
import { exploreCase, replayChooser, runAndJudge, sessionsOf, type CaseResult } from '../../campaign/race/explore.ts';
import { loadClassifier } from '../../campaign/race/independence.ts';
import { RaceSession } from '../../campaign/race/race-session.ts';
import { sampleCase } from '../../campaign/race/sample.ts';
import { raceCases, type RaceCase } from '../../campaign/race/space.ts';
import { ALL_COMMAND_KINDS } from '../../campaign/check/command-arbitraries.ts';
import { usePostgres } from './fixture.ts';

const pg = usePostgres();
beforeAll(() => loadClassifier());

function sessionFor(mutant?: string): RaceSession {
  const found = mutant === undefined ? undefined : findPostgresMutant(`postgres-mutant:${mutant}`);
  const strategy = found?.strategy === 'random-functions' ? 'random-functions' : 'random';
  return new RaceSession(postgresInterleaving(strategy, pg.server().connectionString, () => pg.freshSchema(), found === undefined ? {} : mutantStoreOptions(found)), sessionsOf(2));
}

/** The race kinds of every SQL race mutant, each set once: where the store must pass what its mutants fail. */
const KIND_SETS = [...new Map(POSTGRES_MUTANTS.map((m) => [m.raceKinds.join('+'), m.raceKinds])).values()];

describe('testbed race on PostgreSQL', () => {
  test.each(KIND_SETS.map((kinds) => [kinds.join('+'), kinds] as const))('the built-in store passes every schedule of every case of %s, and each case runs more than one', async (_, kinds) => {
    const session = sessionFor();
    try {
      const results: Array<{ raceCase: RaceCase; result: CaseResult }> = [];
      for (const raceCase of raceCases(kinds, 2, ALL_COMMAND_KINDS)) results.push({ raceCase, result: await exploreCase(session, raceCase, { maxSchedules: 5000, preemptions: null }) });
      expect(results.map(({ raceCase, result }) => `${raceCase.kinds.join('+')}/${raceCase.state.name}/${raceCase.actors}: ${result.outcome}`).filter((line) => !line.endsWith('pass'))).toEqual([]);
      expect(results.every(({ result }) => result.schedules >= 2)).toBe(true);
    } finally {
      await session.close();
    }
  }, 300_000);

  // Every case of a mutant's race kinds, in order, up to the first that fails. A mutant whose race
  // is inside a function is stepped inside functions with PCT samples (sample.ts), 20 a case from
  // seed 1; exploring its cases exhaustively under a preemption bound of 2 takes minutes a
  // mutant, and runs with TESTBED_RACE_FUNCTIONS=1 (npm run test:race-functions).
  const exhaustiveInside = process.env.TESTBED_RACE_FUNCTIONS === '1';
  const racing = POSTGRES_MUTANTS.filter((m) => m.caughtBy.includes('race') && (!exhaustiveInside || m.strategy === 'random-functions'));

  test.each(racing.map((m) => m.name))('race catches the SQL race mutant %s, and its failing schedule replays exactly', async (name) => {
    const mutant = findPostgresMutant(name)!;
    const inside = mutant.strategy === 'random-functions';
    const runCase = (session: RaceSession, raceCase: RaceCase): Promise<CaseResult> =>
      inside && !exhaustiveInside
        ? sampleCase(session, raceCase, { strategy: 'pct', seed: 1, pctDepth: 3, schedules: 20 })
        : exploreCase(session, raceCase, { maxSchedules: 5000, preemptions: inside ? 2 : null });
    const session = sessionFor(name);
    try {
      let found: { raceCase: RaceCase; result: CaseResult } | null = null;
      for (const raceCase of raceCases(mutant.raceKinds, 2, ALL_COMMAND_KINDS)) {
        const result = await runCase(session, raceCase);
        expect(result.outcome, `${raceCase.kinds.join('+')}/${raceCase.state.name}: ${result.why ?? ''}`).not.toBe('undecided');
        if (result.outcome === 'fail') {
          found = { raceCase, result };
          break;
        }
      }
      expect(found, `no case of ${mutant.raceKinds.join('+')} failed`).not.toBeNull();
      const run = found!.result.failure!.run!;
      const again = await runAndJudge(session, found!.raceCase, replayChooser(run.batch.schedule));
      expect(again.verdict.kind).toBe('fail');
      expect(again.run.traceHash).toBe(run.traceHash);
    } finally {
      await session.close();
    }
  }, 300_000);
});
