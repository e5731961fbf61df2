// seed 000 §72–§74, §286, seed 001 §76–§77: the command-level check drives the whole port — the
// calling process of each command, lifecycle events, and job commands that name their job's
// current attempt — and a store whose answers depend on the caller or on a lifecycle event, or a
// job rule only the current attempt reaches, is caught, and only because of that part. A path
// printed before these parts (step format 1) still replays the very counterexample it named.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { findMutant, mutantStoreFactory } from '../../mutants/index.ts';
import type { LifecycleEvent, Store, StoreFactory } from '../../adapters/port.ts';
import { checkStore, runSteps, StoreSession, stepsArbitrary, type StepRecord } from '../../campaign/check/index.ts';
import { Processes } from '../../campaign/check/processes.ts';

function mutant(name: string): StoreFactory {
  return mutantStoreFactory(findMutant(name)!, createMemoryStore);
}

/** `factory`'s store as a store that is never told the calling process. */
function withoutCallers(factory: StoreFactory): StoreFactory {
  return async (options) => {
    const store = await factory(options);
    return { ...store, execute: ((command) => store.execute(command)) as Store['execute'], close: () => store.close() };
  };
}

/** `factory`'s store without `lifecycle`: it is told nothing. */
function withoutLifecycle(factory: StoreFactory): StoreFactory {
  return async (options) => {
    const { lifecycle: _lifecycle, ...store } = await factory(options);
    return store;
  };
}

/** The memory store with a `lifecycle` that answers `answer` and records what it was told and who called. */
function toldStore(seen: { events: LifecycleEvent[]; processes: Set<string> }, answer: (event: LifecycleEvent) => unknown = () => undefined): StoreFactory {
  return async (options) => {
    const base = await createMemoryStore(options);
    return {
      ...base,
      execute: ((command, call) => {
        if (call !== undefined) seen.processes.add(call.process);
        return base.execute(command);
      }) as Store['execute'],
      lifecycle: async (event: LifecycleEvent) => {
        seen.events.push(event);
        return answer(event) as void;
      },
      close: () => base.close(),
    };
  };
}

function lastOf(steps: ReadonlyArray<StepRecord>): StepRecord {
  return steps[steps.length - 1]!;
}

describe('the processes of a run', () => {
  test('a restart starts a new incarnation; a late call comes from the one before it', () => {
    const processes = new Processes();
    expect(processes.call({ node: 'n1', earlier: true })).toEqual({ process: 'n1#1', node: 'n1' });
    expect(processes.events('restart', 'n1').map((e) => `${e.kind} ${e.process}`)).toEqual(['crash n1#1', 'restart n1#2']);
    expect(processes.call({ node: 'n1' })).toEqual({ process: 'n1#2', node: 'n1' });
    expect(processes.call({ node: 'n1', earlier: true })).toEqual({ process: 'n1#1', node: 'n1' });
    expect(processes.call({ node: 'n2' })).toEqual({ process: 'n2#1', node: 'n2' });
  });

  test('an event that does not apply tells nothing, and a node restarted while cut off is cut off again', () => {
    const processes = new Processes();
    expect(processes.events('resume', 'n1')).toEqual([]);
    expect(processes.events('reconnect', 'n1')).toEqual([]);
    expect(processes.events('crash', 'n1').map((e) => e.kind)).toEqual(['crash']);
    expect(processes.events('crash', 'n1')).toEqual([]);
    expect(processes.events('pause', 'n1')).toEqual([]);
    expect(processes.events('cut-off', 'n1').map((e) => `${e.kind} ${e.process}`)).toEqual(['cut-off n1#1']);
    expect(processes.events('restart', 'n1').map((e) => `${e.kind} ${e.process}`)).toEqual(['restart n1#2', 'cut-off n1#2']);
    expect(processes.events('reconnect', 'n1').map((e) => `${e.kind} ${e.process}`)).toEqual(['reconnect n1#2']);
  });
});

describe('a correct store', () => {
  test('with lifecycle() agrees with the model, and is told every kind of event and called by earlier and later processes', async () => {
    const seen = { events: [] as LifecycleEvent[], processes: new Set<string>() };
    const result = await checkStore({ factory: toldStore(seen), runs: 1_000, seed: 7 });
    expect(result.verdict).toBe('pass');
    expect(new Set(seen.events.map((e) => e.kind))).toEqual(new Set(['crash', 'restart', 'pause', 'resume', 'cut-off', 'reconnect', 'database-crash']));
    expect([...seen.processes].some((p) => p.endsWith('#1'))).toBe(true);
    expect([...seen.processes].some((p) => /#[2-9]$/.test(p))).toBe(true);
  });

  test('diverges when its lifecycle() says a lease ended with a session: the reference ends none', async () => {
    const seen = { events: [] as LifecycleEvent[], processes: new Set<string>() };
    const ending = toldStore(seen, () => ({ ended: [{ scope: 'env:prod', holder: 'A', token: 1 }] }));
    const result = await checkStore({ factory: ending, runs: 500, seed: 1 });
    expect(result.verdict).toBe('fail');
    if (result.verdict !== 'fail') return;
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]!.step.kind).toBe('lifecycle');
    expect(result.steps[0]!.expected).toEqual({ ended: [] });
  });

  test('whose leases end with their sessions cannot be judged against the model: undecided, with the reason', async () => {
    const factory: StoreFactory = async (options) => ({ ...(await createMemoryStore(options)), capabilities: { leaseBound: 'session' } });
    const result = await checkStore({ factory, runs: 10, seed: 1 });
    expect(result.verdict).toBe('undecided');
    if (result.verdict === 'undecided') expect(result.reason).toMatch(/leaseBound: 'session'/);
  });
});

describe('each part of the check catches a mutant the others cannot', () => {
  test('the calling process: session-reentrant-acquire, and nothing without it', async () => {
    const caught = await checkStore({ factory: mutant('session-reentrant-acquire'), runs: 5_000, seed: 1 });
    expect(caught.verdict).toBe('fail');
    if (caught.verdict !== 'fail') return;
    expect(lastOf(caught.steps).call?.process).toMatch(/^n\d#\d+$/);
    const blind = await checkStore({ factory: withoutCallers(mutant('session-reentrant-acquire')), runs: 2_000, seed: 1 });
    expect(blind.verdict).toBe('pass');
  });

  test('lifecycle events: unlogged-leases, and nothing when the store is not told', async () => {
    const caught = await checkStore({ factory: mutant('unlogged-leases'), runs: 5_000, seed: 1 });
    expect(caught.verdict).toBe('fail');
    if (caught.verdict !== 'fail') return;
    expect(caught.steps.some((s) => s.events?.some((e) => e.kind === 'database-crash'))).toBe(true);
    const untold = await checkStore({ factory: withoutLifecycle(mutant('unlogged-leases')), runs: 2_000, seed: 1 });
    expect(untold.verdict).toBe('pass');
  });

  test('live job attempts: finish-after-return, which format 1 (literal job ids and tokens) does not reach', async () => {
    const caught = await checkStore({ factory: mutant('finish-after-return'), runs: 5_000, seed: 1 });
    expect(caught.verdict).toBe('fail');
    if (caught.verdict !== 'fail') return;
    expect(caught.steps.map((s) => s.command?.kind)).toEqual(['SubmitJob', 'DispatchJob', 'ReturnJob', 'FinishJob']);
    const attempt = (caught.steps[1]!.expected as { job: { attemptToken: number } }).job.attemptToken;
    expect(lastOf(caught.steps).command).toMatchObject({ token: attempt });

    const session = await StoreSession.open(mutant('finish-after-return'));
    try {
      const steps = stepsArbitrary({ snapshots: session.durable, maxSteps: 50, format: 1 });
      const property = fc.asyncProperty(steps, async (sequence) => (await runSteps(session, sequence, 10_000, 1)).kind !== 'diverged');
      expect((await fc.check(property, { numRuns: 5_000, seed: 1 })).failed).toBe(false);
    } finally {
      await session.close();
    }
  });
});

describe('paths printed before call contexts, lifecycle steps and live attempts', () => {
  test('replay the very counterexample they named, and keep their form', async () => {
    const semaphore = await checkStore({ factory: mutant('semaphore-off-by-one'), seed: 11, path: '212:2:2:3:7:7:8:9:11:11:6:6:6' });
    expect(semaphore.verdict).toBe('fail');
    if (semaphore.verdict !== 'fail') return;
    expect(semaphore.path).toBe('212:2:2:3:7:7:8:9:11:11:6:6:6');
    expect(semaphore.steps.map((s) => s.command)).toEqual([
      { kind: 'DefineCapacity', scope: 'custom:b0b6de58efcfac0e248b', capacity: 2 },
      { kind: 'AcquirePermit', scope: 'custom:b0b6de58efcfac0e248b', permitId: '1', holder: 'A', units: 3, ttlMs: 50 },
    ]);
    // Job commands of format 1 keep their literal ids: nothing of the state is filled in.
    const jobs = await checkStore({ factory: mutant('list-omits-leased'), seed: 11, path: '102:1:0:3:3:4:5:5:5:8:4:4' });
    expect(jobs.verdict).toBe('fail');
    if (jobs.verdict !== 'fail') return;
    expect(jobs.steps.map((s) => s.command)).toEqual([
      { kind: 'SubmitJob', jobId: '1', scope: 'env:e2d7333b3961b822c512' },
      { kind: 'DispatchJob', jobId: '1', holder: 'A', ttlMs: 50 },
      { kind: 'ListJobs' },
    ]);
    expect(jobs.steps.every((s) => s.call === undefined)).toBe(true);
  });

  test('a path of the current format starts with v3:, and one of an unknown format is refused', async () => {
    const found = await checkStore({ factory: mutant('semaphore-off-by-one'), runs: 5_000, seed: 11 });
    expect(found.verdict).toBe('fail');
    if (found.verdict !== 'fail') return;
    expect(found.path).toMatch(/^v3:\d+(:\d+)*$/);
    await expect(checkStore({ factory: createMemoryStore, seed: 2, path: 'v4:1:2' })).rejects.toThrow(/bad check path "v4:1:2"/);
  });
});
