// The command-level check (campaign/check/): it agrees with a correct store, catches every store
// mutant in a few steps, catches a store module that differs from the model in one command,
// replays a counterexample from its seed and path, and tells a store's bug (a divergence) from
// an unreachable store (undecided).

import { describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { MUTANTS } from '../../mutants/index.ts';
import { StoreUnavailableError, type Store, type StoreFactory, type StoreImage } from '../../adapters/port.ts';
import { checkMutant, checkStore, formatCounterexample } from '../../campaign/check/index.ts';
import type { Command } from '../../model/commands.ts';
import { inProcessAdapter } from '../../mutants/in-process.ts';

/** The memory store with one command answered by `answer` instead. */
function alteredStore(kind: Command['kind'], answer: (command: Command, correct: unknown) => unknown, keepImages = true): StoreFactory {
  return async (options) => {
    const base = await createMemoryStore(options);
    const store: Store = {
      name: `altered-${kind}`,
      execute: (async (command: Command) => {
        const correct = await base.execute(command);
        return command.kind === kind ? answer(command, correct) : correct;
      }) as Store['execute'],
      close: () => base.close(),
      ...(keepImages ? { snapshot: () => base.snapshot!(), restore: (image) => base.restore!(image) } : {}),
    };
    return store;
  };
}

describe('a correct store', () => {
  test('the memory store agrees with the model on 2000 sequences, snapshots and restores included', async () => {
    const result = await checkStore({ factory: createMemoryStore, runs: 2_000, seed: 1 });
    expect(result.verdict).toBe('pass');
    expect(result.runs).toBe(2_000);
  });

  test('a store without snapshot and restore is built anew for every sequence and agrees', async () => {
    let built = 0;
    const factory: StoreFactory = async (options) => {
      built++;
      const { snapshot: _s, restore: _r, ...rest } = await createMemoryStore(options);
      return rest as Store;
    };
    const result = await checkStore({ factory, runs: 200, seed: 2 });
    expect(result.verdict).toBe('pass');
    expect(built).toBe(201);
  });
});

describe('every store mutant is caught in a few steps', () => {
  const storeMutants = MUTANTS.filter((m) => m.wraps !== undefined);
  test.each(storeMutants.map((m) => [m.name, m] as const))('%s', async (_name, mutant) => {
    for (const seed of [1, 2, 3]) {
      const caught = await checkMutant(mutant, 5_000, seed);
      expect(caught?.caught, `${mutant.name} seed ${seed}`).toBe(true);
      expect(caught!.steps!, `${mutant.name} seed ${seed}: ${caught!.replay}`).toBeLessThanOrEqual(6);
    }
  });

  test('a policy mutant is out of the check’s reach, and says so', async () => {
    const policy = MUTANTS.find((m) => m.wraps === undefined)!;
    expect(await checkMutant(policy)).toBeNull();
  });
});

describe('a store that differs from the model in one command', () => {
  // Release answers Released whatever the token: a holder releasing with a stale token is told it succeeded.
  const lyingRelease = alteredStore('Release', (command, correct) =>
    (correct as { kind: string }).kind === 'Stale' ? { kind: 'Released', token: (command as { token: number }).token } : correct,
  );

  test('is caught with a short counterexample naming both outcomes', async () => {
    const result = await checkStore({ factory: lyingRelease, runs: 1_000, seed: 5 });
    expect(result.verdict).toBe('fail');
    if (result.verdict !== 'fail') return;
    expect(result.steps.length).toBeLessThanOrEqual(6);
    const last = result.steps[result.steps.length - 1]!;
    expect(last.command?.kind).toBe('Release');
    expect(last.actual).toMatchObject({ kind: 'Released' });
    expect(last.expected).toMatchObject({ kind: 'Stale' });
    const text = formatCounterexample(result.steps).join('\n');
    expect(text).toContain('store: {"kind":"Released"');
    expect(text).toContain('model: {"kind":"Stale"');
  });

  test('its counterexample replays from the seed and path, without shrinking again', async () => {
    const first = await checkStore({ factory: lyingRelease, runs: 1_000, seed: 9 });
    expect(first.verdict).toBe('fail');
    if (first.verdict !== 'fail') return;
    const again = await checkStore({ factory: lyingRelease, runs: 1_000, seed: 9, path: first.path });
    expect(again.verdict).toBe('fail');
    if (again.verdict !== 'fail') return;
    expect(again.shrinks).toBe(0);
    expect(again.sequence).toEqual(first.sequence);
  });

  test('a restore that keeps the current state is caught', async () => {
    // The check resets to the store's first (empty) image before each sequence; that restore
    // works, every later restore silently keeps the current state.
    const factory: StoreFactory = async (options) => {
      const base = await createMemoryStore(options);
      let empty: StoreImage | undefined;
      return {
        name: 'restore-keeps-state',
        execute: base.execute.bind(base),
        snapshot: async () => {
          const image = await base.snapshot!();
          empty ??= image;
          return image;
        },
        restore: async (image) => (image === empty ? base.restore!(image) : undefined),
        close: () => base.close(),
      };
    };
    const result = await checkStore({ factory, runs: 1_000, seed: 3 });
    expect(result.verdict).toBe('fail');
    if (result.verdict !== 'fail') return;
    expect(result.steps.some((s) => s.step.kind === 'restore')).toBe(true);
    expect(result.steps.length).toBeLessThanOrEqual(6);
  });
});

describe('errors', () => {
  test('a store that throws a plain error diverges: the error is its answer', async () => {
    const factory = alteredStore('Enqueue', () => {
      throw new Error('column "priority" does not exist');
    });
    const result = await checkStore({ factory, runs: 500, seed: 1 });
    expect(result.verdict).toBe('fail');
    if (result.verdict !== 'fail') return;
    expect(result.steps.length).toBe(1);
    expect(result.steps[0]!.actual).toEqual({ thrown: 'Error: column "priority" does not exist' });
  });

  test('a store that cannot be reached leaves the check undecided, naming the command', async () => {
    const factory = alteredStore('Mutate', (command) => {
      throw new StoreUnavailableError(command.kind, new Error('connection refused'));
    });
    const result = await checkStore({ factory, runs: 500, seed: 1 });
    expect(result.verdict).toBe('undecided');
    if (result.verdict !== 'undecided') return;
    expect(result.reason).toContain('Mutate');
    expect(result.reason).toContain('connection refused');
  });

  test('a store call that never answers leaves the check undecided after the call timeout', async () => {
    const factory = alteredStore('Renew', () => new Promise(() => {}));
    const result = await checkStore({ factory, runs: 500, seed: 1, callTimeoutMs: 50 });
    expect(result.verdict).toBe('undecided');
    if (result.verdict !== 'undecided') return;
    expect(result.reason).toContain('did not answer Renew within 50 ms');
  });
});

test('only the declared command kinds are sent', async () => {
  const seen = new Set<string>();
  const factory: StoreFactory = async (options) => {
    const base = await createMemoryStore(options);
    return { ...base, execute: ((command: Command) => (seen.add(command.kind), base.execute(command))) as Store['execute'], close: () => base.close() };
  };
  const kinds = ['Acquire', 'Renew', 'Release', 'Mutate'] as const;
  const result = await checkStore({ factory, runs: 300, seed: 4, kinds });
  expect(result.verdict).toBe('pass');
  expect([...seen].sort()).toEqual([...kinds].sort());
});

describe('what a store declares', () => {
  test('a store declaring its command kinds is sent only those', async () => {
    const seen = new Set<string>();
    const kinds = ['Acquire', 'Renew', 'Release', 'Mutate'] as const;
    const factory: StoreFactory = async (options) => {
      const base = await createMemoryStore(options);
      return {
        name: 'lease-only',
        capabilities: { commands: kinds },
        execute: ((command: Command) => (seen.add(command.kind), base.execute(command))) as Store['execute'],
        close: () => base.close(),
      };
    };
    const result = await checkStore({ factory, runs: 300, seed: 6 });
    expect(result.verdict).toBe('pass');
    expect([...seen].sort()).toEqual([...kinds].sort());
  });

  test('a store declaring semantics of its own cannot be judged against the model: undecided, with the reason', async () => {
    const factory: StoreFactory = async (options) => ({ ...(await createMemoryStore(options)), capabilities: { referenceSemantics: false } });
    const result = await checkStore({ factory, runs: 100, seed: 1 });
    expect(result.verdict).toBe('undecided');
    if (result.verdict === 'undecided') expect(result.reason).toMatch(/semantics of its own/);
  });
});

describe('a store whose restore to empty leaves state behind', () => {
  // busy-from-lease-cache keeps a copy of its leases in the process, which no restore resets: on
  // the session's store, restored to empty between sequences, a lease of an earlier sequence
  // answers Busy to a later one, which would not diverge alone.
  const factory = inProcessAdapter('mutant:busy-from-lease-cache')!.store.factory;

  test('the counterexample comes from fresh stores, says so, and replays alone from its path', async () => {
    const result = await checkStore({ factory, seed: 1 });
    expect(result.verdict).toBe('fail');
    if (result.verdict !== 'fail') return;
    expect(result.restoreLeaks).toEqual({ reproduced: true });
    const again = await checkStore({ factory, seed: 1, path: result.path, freshStore: true });
    expect(again.verdict).toBe('fail');
    if (again.verdict === 'fail') expect(again.sequence).toEqual(result.sequence);
  });

  test('a store whose restore resets everything is not said to leak', async () => {
    const result = await checkStore({ factory: inProcessAdapter('mutant:no-fencing-check')!.store.factory, seed: 1 });
    expect(result.verdict).toBe('fail');
    if (result.verdict === 'fail') expect(result.restoreLeaks).toBeUndefined();
  });
});
