// The race stage on the real store (campaign/race/): every schedule of the Acquire/Release cases
// passes on the built-in store, the SQL race mutant release-check-then-delete (000 §25–§30) fails
// one of them, and the failing schedule replays with the same trace hash; every SQL race mutant
// the catalogue says race catches fails a case of its race kinds, with a schedule that replays.

import { beforeAll, describe, expect, test } from 'vitest';
import { postgresInterleaving } from '../../adapters/postgres/interleave/index.ts';
import { findPostgresMutant, mutantStoreOptions, POSTGRES_MUTANTS } from '../../adapters/postgres/mutants/index.ts';
import { exploreCase, replayChooser, runAndJudge, sessionsOf, type CaseResult } from '../../campaign/race/explore.ts';
import { loadClassifier } from '../../campaign/race/independence.ts';
import { RaceSession } from '../../campaign/race/race-session.ts';
import { raceCases, type RaceCase } from '../../campaign/race/space.ts';
import { ALL_COMMAND_KINDS } from '../../campaign/check/command-arbitraries.ts';
import { usePostgres } from './fixture.ts';

const pg = usePostgres();
beforeAll(() => loadClassifier());

const cases = raceCases(['Acquire', 'Release'], 2);

function sessionFor(mutant?: string): RaceSession {
  const found = mutant === undefined ? undefined : findPostgresMutant(`postgres-mutant:${mutant}`);
  const strategy = found?.strategy === 'random-functions' ? 'random-functions' : 'random';
  return new RaceSession(postgresInterleaving(strategy, pg.server().connectionString, () => pg.freshSchema(), found === undefined ? {} : mutantStoreOptions(found)), sessionsOf(2));
}

async function exploreAll(session: RaceSession): Promise<Array<{ raceCase: RaceCase; result: CaseResult }>> {
  const results = [];
  for (const raceCase of cases) results.push({ raceCase, result: await exploreCase(session, raceCase, { maxSchedules: 5000, preemptions: null }) });
  return results;
}

describe('testbed race on PostgreSQL', () => {
  test('the built-in store passes every schedule of every Acquire/Release case, and each case runs more than one', async () => {
    const session = sessionFor();
    try {
      const results = await exploreAll(session);
      expect(results.map(({ raceCase, result }) => `${raceCase.kinds.join('+')}/${raceCase.state.name}: ${result.outcome}`).filter((line) => !line.endsWith('pass'))).toEqual([]);
      expect(results.every(({ result }) => result.schedules >= 2)).toBe(true);
    } finally {
      await session.close();
    }
  }, 240_000);

  test('release-check-then-delete fails a case, and its schedule replays with the same trace hash', async () => {
    const session = sessionFor('release-check-then-delete');
    try {
      const failing = (await exploreAll(session)).filter(({ result }) => result.outcome === 'fail');
      expect(failing.length).toBeGreaterThan(0);
      const { raceCase, result } = failing[0]!;
      const run = result.failure!.run!;
      const again = await runAndJudge(session, raceCase, replayChooser(run.batch.schedule));
      expect(again.verdict.kind).toBe('fail');
      expect(again.run.traceHash).toBe(run.traceHash);
    } finally {
      await session.close();
    }
  }, 240_000);

  // Every case of a mutant's race kinds, in order, up to the first that fails. Stepping inside
  // functions takes minutes a mutant (hundreds of schedules a case), so those mutants run with
  // TESTBED_RACE_FUNCTIONS=1 (npm run test:race-functions), not in npm test.
  const insideFunctions = process.env.TESTBED_RACE_FUNCTIONS === '1';
  const racing = POSTGRES_MUTANTS.filter((m) => m.caughtBy.includes('race') && (m.strategy === 'random-functions') === insideFunctions);

  test.each(racing.map((m) => m.name))('race catches the SQL race mutant %s, and its failing schedule replays exactly', async (name) => {
    const mutant = findPostgresMutant(name)!;
    const inside = mutant.strategy === 'random-functions';
    const session = sessionFor(name);
    try {
      let found: { raceCase: RaceCase; result: CaseResult } | null = null;
      for (const raceCase of raceCases(mutant.raceKinds, 2, ALL_COMMAND_KINDS)) {
        const result = await exploreCase(session, raceCase, { maxSchedules: 5000, preemptions: inside ? 2 : null });
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
