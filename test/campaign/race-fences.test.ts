// The race stage on stores whose fences are not integers (campaign/race/, campaign/fences/), run
// here on an in-process stand-in for the statement gate that runs a batch's calls whole, one after
// another, in the order the schedule tree chooses, so every case's serial orders are explored
// without PostgreSQL: a correct store with opaque fences passes every case of its lease kinds, and
// so does a correct store without fences; one that accepts a stale fence (000 §25–§30) or gives a
// new lease the fence of an earlier one (000 §24) fails a case, named by the rule it breaks.

import { describe, expect, test } from 'vitest';
import type { BatchResult, Chooser, InterleavedStores, Interleaving, SessionCall } from '../../adapters/interleaving.ts';
import type { StoreFactory, StoreOptions } from '../../adapters/port.ts';
import type { CommandKind } from '../../model/commands.ts';
import { exploreCase, type CaseResult } from '../../campaign/race/explore.ts';
import { RaceSession } from '../../campaign/race/race-session.ts';
import { raceCases, type RaceCase } from '../../campaign/race/space.ts';
import fencelessMemory from '../fences/fixtures/fenceless-memory.ts';
import opaqueMemory from '../fences/fixtures/opaque-memory.ts';
import opaqueReusedFence from '../fences/fixtures/opaque-reused-fence.ts';
import opaqueStaleWrite from '../fences/fixtures/opaque-stale-write.ts';

const KINDS: ReadonlyArray<CommandKind> = ['Acquire', 'Renew', 'Release', 'Mutate'];
const SESSIONS = ['s1', 's2'];

/** Batches run on one store, each call whole at its turn: a schedule is the order of the calls. */
function serialInterleaving(factory: StoreFactory): Interleaving {
  const interleaving: Interleaving = {
    strategy: 'random',
    windowMs: 25,
    withStrategy: () => interleaving,
    async open(options: StoreOptions): Promise<InterleavedStores> {
      const main = await factory(options);
      const runBatch = async (calls: ReadonlyArray<SessionCall>, choose: Chooser | null, end: number): Promise<BatchResult> => {
        const waiting = calls.map((_, i) => i);
        const settled: Array<BatchResult['settled'][number]> = [];
        const schedule: string[] = [];
        while (waiting.length > 0) {
          const pick = choose === null ? 0 : choose(waiting.map((i) => calls[i]!.session));
          const call = waiting.splice(pick, 1)[0]!;
          schedule.push(calls[call]!.session);
          const result = await main.execute(calls[call]!.command).then((value) => ({ status: 'fulfilled' as const, value }), (reason: unknown) => ({ status: 'rejected' as const, reason }));
          settled.push({ call, result, storeTimes: [end] });
        }
        return { settled, schedule };
      };
      return { main, passingTime: false, runBatch, close: () => main.close() };
    },
  };
  return interleaving;
}

async function explore(factory: StoreFactory, kinds: ReadonlyArray<CommandKind> = KINDS): Promise<Array<{ raceCase: RaceCase; result: CaseResult }>> {
  const session = new RaceSession(serialInterleaving(factory), SESSIONS);
  const declared = (await session.declaredKinds()) ?? kinds;
  const out: Array<{ raceCase: RaceCase; result: CaseResult }> = [];
  try {
    for (const raceCase of raceCases(kinds.filter((k) => declared.includes(k)), 2, declared)) {
      out.push({ raceCase, result: await exploreCase(session, raceCase, { maxSchedules: 50, preemptions: null }) });
    }
  } finally {
    await session.close();
  }
  return out;
}

const failures = (results: ReadonlyArray<{ result: CaseResult }>) => results.filter(({ result }) => result.outcome === 'fail').map(({ result }) => result.failure!.verdict);

describe('race on stores whose fences are not integers', () => {
  test('a correct store with opaque fences passes every case of its lease kinds', async () => {
    const results = await explore(opaqueMemory);
    expect(results.length).toBeGreaterThan(20);
    expect(results.filter(({ result }) => result.outcome !== 'pass').map(({ raceCase, result }) => `${raceCase.kinds.join('+')}@${raceCase.state.name}: ${result.outcome} ${result.why ?? result.failure?.verdict.message ?? ''}`)).toEqual([]);
  });

  test('a correct store without fences passes every case of its lease kinds', async () => {
    const results = await explore(fencelessMemory);
    expect(results.length).toBeGreaterThan(20);
    expect(results.filter(({ result }) => result.outcome !== 'pass').map(({ raceCase, result }) => `${raceCase.kinds.join('+')}@${raceCase.state.name}: ${result.outcome} ${result.why ?? result.failure?.verdict.message ?? ''}`)).toEqual([]);
  });

  test('an opaque store that accepts a write under a stale fence fails a case', async () => {
    const found = failures(await explore(opaqueStaleWrite));
    expect(found.length).toBeGreaterThan(0);
    expect(found.map((v) => v.message).join('\n')).toMatch(/Mutate answered \{"kind":"Accepted"/);
  });

  test('an opaque store that gives every lease of a scope one fence fails a case as a reused fence', async () => {
    const found = failures(await explore(opaqueReusedFence));
    expect(found.map((v) => v.rule)).toContain('fencing-monotonic');
    expect(found.find((v) => v.rule === 'fencing-monotonic')!.message).toMatch(/issued twice/);
  });
});
