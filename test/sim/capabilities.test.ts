// A store that implements only some command kinds (capabilities.commands): it is never sent
// another kind; the controller does without intents, queueing and inspection; a scenario whose
// workload needs more is untested, naming what the store lacks; a checker that would judge
// nothing is left out of the verdict and named; and bugs in what the store does implement are
// still caught.

import { describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { noFencingCheck } from '../../mutants/store/no-fencing-check.ts';
import { mutantStoreFactory } from '../../mutants/index.ts';
import type { Store, StoreFactory } from '../../adapters/port.ts';
import type { Command, CommandKind } from '../../model/commands.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { lackingCommands } from '../../sim/capabilities.ts';
import { runScenario } from '../../sim/run.ts';

const LEASES: ReadonlyArray<CommandKind> = ['Acquire', 'Renew', 'Release', 'Mutate'];

function leaseOnly(base: StoreFactory, seen?: Set<string>): StoreFactory {
  return async (options) => {
    const store = await base(options);
    return {
      name: 'lease-only',
      capabilities: { commands: LEASES },
      execute: ((command: Command) => (seen?.add(command.kind), store.execute(command))) as Store['execute'],
      close: () => store.close(),
    };
  };
}

describe('a lease-only store', () => {
  test('is judged on a lease scenario and is sent nothing but the kinds it declares', async () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 5; seed++) {
      const result = await runScenario({ scenario: loadScenario('stale-holder'), seed, store: { name: 'lease-only', factory: leaseOnly(createMemoryStore, seen) } });
      expect(result.untested, `seed ${seed}`).toBeUndefined();
      expect(result.valid, `seed ${seed}`).toBe(true);
      expect(result.operations).toBeGreaterThan(0);
    }
    expect([...seen].every((kind) => LEASES.includes(kind as CommandKind))).toBe(true);
    expect(seen.has('Mutate')).toBe(true);
  });

  test('a job that waits for a lease gets it by polling Acquire, without a wait queue', async () => {
    let granted = 0;
    for (let seed = 1; seed <= 5; seed++) {
      const result = await runScenario({ scenario: loadScenario('stale-holder'), seed, store: { name: 'lease-only', factory: leaseOnly(createMemoryStore) } });
      granted += result.history.filter((e) => e.f === 'wait' && e.type === 'ok').length;
    }
    expect(granted).toBeGreaterThan(0);
  });

  test('a scenario whose workload needs more is untested, naming what the store lacks', async () => {
    const result = await runScenario({ scenario: loadScenario('semaphore-capacity'), seed: 1, store: { name: 'lease-only', factory: leaseOnly(createMemoryStore) } });
    expect(result.valid).toBe('unknown');
    expect(result.untested).toMatch(/^the store lacks .*AcquirePermit.*DefineCapacity/);
  });

  test('a checker that reads what the store lacks is named unjudged, not passed', async () => {
    const result = await runScenario({ scenario: loadScenario('fairness-starvation'), seed: 1, store: { name: 'lease-only', factory: leaseOnly(createMemoryStore) } });
    expect(result.unjudged).toEqual([{ invariant: 'liveness', lacks: ['Enqueue', 'CancelWait'] }]);
  });

  test('a scenario judged only by checkers that read what the store lacks is untested, not passed', async () => {
    const onlyLiveness = { ...loadScenario('fairness-starvation'), invariants: ['liveness' as const] };
    const result = await runScenario({ scenario: onlyLiveness, seed: 1, store: { name: 'lease-only', factory: leaseOnly(createMemoryStore) } });
    expect(result.valid).toBe('unknown');
    expect(result.untested).toBe('every invariant of the scenario reads a command the store lacks (liveness: Enqueue, CancelWait)');
  });

  test('a fencing bug in what it does implement is still caught', async () => {
    const broken = leaseOnly(mutantStoreFactory(noFencingCheck, createMemoryStore));
    let caught = false;
    for (let seed = 1; seed <= 20 && !caught; seed++) {
      const result = await runScenario({ scenario: loadScenario('stale-holder'), seed, store: { name: 'lease-only', factory: broken } });
      caught = result.valid === false;
    }
    expect(caught).toBe(true);
  });
});

test('lackingCommands: optional commands are required only by the checkers that read them', () => {
  const sent = ['Acquire', 'PlanIntent', 'TransitionIntent', 'Enqueue', 'Reserve'];
  expect(lackingCommands(sent, LEASES, ['one-owner-per-epoch'])).toEqual({ commands: ['Reserve'], unjudged: [] });
  expect(lackingCommands(sent, LEASES, ['release-after-reconcile', 'liveness']).unjudged).toEqual([
    { invariant: 'release-after-reconcile', lacks: ['PlanIntent', 'TransitionIntent'] },
    { invariant: 'liveness', lacks: ['Enqueue', 'CancelWait'] },
  ]);
  // history-retained reads Inspect: unjudged where the run sends one, and nothing taken where it sends none.
  expect(lackingCommands(sent, LEASES, ['history-retained']).unjudged).toEqual([]);
  expect(lackingCommands([...sent, 'Inspect'], LEASES, ['history-retained']).unjudged).toEqual([{ invariant: 'history-retained', lacks: ['Inspect'] }]);
});
