// The reference model as a shadow store in every simulated run (sim/shadow-model.ts): a store
// that answers one command differently from the model is caught by the `differential` invariant
// even where no history checker would notice; a store that declares semantics of its own is not
// compared; a store without snapshot/restore is not judged on faults it could not undergo.

import { describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import type { Store, StoreFactory } from '../../adapters/port.ts';
import type { Command } from '../../model/commands.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';
import { ShadowModel } from '../../sim/shadow-model.ts';

/** The memory store whose Renew grants one millisecond more than asked: no history checker can see it. */
function generousRenew(options: { referenceSemantics?: boolean; images?: boolean } = {}): StoreFactory {
  return async (storeOptions) => {
    const base = await createMemoryStore(storeOptions);
    const store: Store = {
      name: 'generous-renew',
      ...(options.referenceSemantics === undefined ? {} : { capabilities: { referenceSemantics: options.referenceSemantics } }),
      execute: (async (command: Command) => {
        const outcome = await base.execute(command);
        if (command.kind === 'Renew' && outcome.kind === 'Renewed') return { ...outcome, lease: { ...outcome.lease, expiresAt: outcome.lease.expiresAt + 1 } };
        return outcome;
      }) as Store['execute'],
      close: () => base.close(),
      ...(options.images === false ? {} : { snapshot: () => base.snapshot(), restore: (image) => base.restore(image) }),
    };
    return store;
  };
}

async function firstFailure(factory: StoreFactory, scenario: string, seeds: number) {
  for (let seed = 1; seed <= seeds; seed++) {
    const result = await runScenario({ scenario: loadScenario(scenario), seed, store: { name: 'generous-renew', factory } });
    if (result.valid === false) return result;
  }
  return null;
}

describe('the differential in every simulated run', () => {
  test('a store that answers one command differently from the model is caught, naming the command and both outcomes', async () => {
    const failing = await firstFailure(generousRenew(), 'standard-mix', 10);
    expect(failing).not.toBeNull();
    const differential = failing!.violations.find((v) => v.invariant === 'differential');
    expect(differential?.message).toMatch(/^Renew by \S+ at store time \d+: the store answered \{"kind":"Renewed".*the reference model \{"kind":"Renewed"/);
  });

  test('the same store, declaring semantics of its own, is judged by the history checkers alone', async () => {
    const failing = await firstFailure(generousRenew({ referenceSemantics: false }), 'standard-mix', 10);
    expect(failing?.violations.find((v) => v.invariant === 'differential')).toBeUndefined();
  });

  test('the memory store itself is not stepped twice, and a store that spreads it into an object of its own is', async () => {
    const scenario = loadScenario('standard-mix');
    const own = await runScenario({ scenario, seed: 1, store: { name: 'memory', factory: createMemoryStore } });
    expect(own.shadow).toEqual({ compared: 0, stoppedBecause: null });
    const spread: StoreFactory = async (options) => ({ ...(await createMemoryStore(options)), name: 'spread-memory' });
    const wrapped = await runScenario({ scenario, seed: 1, store: { name: 'spread-memory', factory: spread } });
    expect(wrapped.shadow?.compared).toBeGreaterThan(50);
    expect(wrapped.traceHash).toBe(own.traceHash);
  });

  test('the differential can be switched off for a run', async () => {
    const result = await runScenario({ scenario: loadScenario('renewal-race'), seed: 1, store: { name: 'generous-renew', factory: generousRenew() }, differential: false });
    expect(result.violations.find((v) => v.invariant === 'differential')).toBeUndefined();
  });
});

describe('stores without snapshot and restore', () => {
  const withoutImages: StoreFactory = async (options) => {
    const base = await createMemoryStore(options);
    return { name: 'no-images', execute: base.execute.bind(base), close: () => base.close() };
  };

  test.each(['db-failover', 'restore'])('%s: a skipped fault is recorded with its reason and judges nothing', async (name) => {
    for (let seed = 1; seed <= 20; seed++) {
      const result = await runScenario({ scenario: loadScenario(name), seed, store: { name: 'no-images', factory: withoutImages } });
      expect(result.valid, `${name} seed ${seed}: ${result.violations.map((v) => v.message).join('; ')}`).toBe(true);
      const replaced = result.history.filter((e) => e.type === 'fault' && (e.f === 'db-failover' || e.f === 'db-restore'));
      for (const fault of replaced) expect(fault.value).toMatchObject({ skipped: true, reason: 'the store has no snapshot()/restore()' });
    }
  });
});

describe('the shadow model', () => {
  const acquire: Command = { kind: 'Acquire', scope: 'env:0123456789abcdef0123', holder: 'A', ttlMs: 1_000 };

  test('stops at an unknown outcome, so that later outcomes are not judged against a guess', () => {
    const shadow = new ShadowModel(true);
    shadow.lost(acquire, 'connection reset');
    shadow.executed(acquire, 10, { kind: 'Nonsense' }, 'c1#1', null);
    expect(shadow.violations()).toEqual([]);
    expect(shadow.stoppedBecause).toMatch(/outcome of Acquire is unknown \(connection reset\)/);
  });

  test('reports the first divergence only', () => {
    const shadow = new ShadowModel(true);
    shadow.executed(acquire, 10, { kind: 'Nonsense' }, 'c1#1', 7);
    shadow.executed(acquire, 11, { kind: 'Other' }, 'c1#1', 9);
    expect(shadow.violations()).toHaveLength(1);
    expect(shadow.violations()[0]).toMatchObject({ invariant: 'differential', events: [7] });
  });

  test('follows a restore of its image', () => {
    const shadow = new ShadowModel(true);
    const empty = shadow.image();
    shadow.executed(acquire, 10, { kind: 'Acquired', lease: { scope: acquire.scope, holder: 'A', token: 1, acquiredAt: 10, expiresAt: 1_010 } }, 'c1#1', null);
    shadow.restore(empty);
    // After the restore the scope is free again, and the next owner gets token 1 in the model too.
    shadow.executed({ ...acquire, holder: 'B' }, 20, { kind: 'Acquired', lease: { scope: acquire.scope, holder: 'B', token: 1, acquiredAt: 20, expiresAt: 1_020 } }, 'c2#1', null);
    expect(shadow.violations()).toEqual([]);
  });
  describe('store time passing during a batch (000 §91: aging)', () => {
    // Waiter A (priority 0) queued at 0; then B (priority 2) queues in a batch during which store
    // time went from 500 to 1500. Either time gives B position 1, but at 3000 B has aged past A
    // only if it queued at 500 (2 + 2 > 3); queued at 1500 it ties with A, and A goes first. The
    // answer to A's Acquire at 3000 tells which, so the shadow must follow both states until then.
    const scope = 'env:s';
    const enqueue = (waiterId: string, priority: number): Command => ({ kind: 'Enqueue', scope, waiterId, holder: waiterId, priority });
    const acquireAsA: Command = { kind: 'Acquire', scope, holder: 'A', ttlMs: 1_000, waiterId: 'A' };
    const afterBatch = (): ShadowModel => {
      const shadow = new ShadowModel(true);
      shadow.executed(enqueue('A', 0), 0, { kind: 'Enqueued', position: 1 }, 'c1#1', null);
      shadow.executedBatch([{ command: enqueue('B', 2), actual: { kind: 'Enqueued', position: 1 }, process: 'c2#1', storeTimes: [500, 1_500] }], 1_500);
      return shadow;
    };

    test.each([
      ['B queued at 500', { kind: 'Rejected', reason: 'not-head-of-queue' }],
      ['B queued at 1500', { kind: 'Acquired', lease: { scope, holder: 'A', token: 1, acquiredAt: 3_000, expiresAt: 4_000 } }],
    ])('an answer explained only by %s is accepted', (_, answer) => {
      const shadow = afterBatch();
      shadow.executed(acquireAsA, 3_000, answer, 'c1#1', 4);
      expect(shadow.violations()).toEqual([]);
      expect(shadow.stoppedBecause).toBeNull();
    });

    test('an answer neither state gives is a divergence', () => {
      const shadow = afterBatch();
      shadow.executed(acquireAsA, 3_000, { kind: 'Rejected', reason: 'unknown-waiter' }, 'c1#1', 4);
      expect(shadow.violations()[0]).toMatchObject({ invariant: 'differential', events: [4] });
      expect(shadow.violations()[0]!.message).toContain('in the first of the 2 states it follows');
    });
  });
});
