// docs/ARCHITECTURE.md "The store port", seed 000 §79–§82, §272–§273: the memory store answers exactly as the model, on its TimeSource's clock.

import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import createMemoryStoreDefault, { createMemoryStore, createMemoryStoreSync } from '../adapters/memory.ts';
import type { TimeSource } from '../adapters/port.ts';
import { initialState } from '../model/state.ts';
import { step } from '../model/step.ts';
import { resolveCommand, runArb, SETUP } from './model/command-arbitrary.ts';
import { scope } from './model/model-driver.ts';

class VirtualClock implements TimeSource {
  constructor(public ms = 0) {}
  now(): number {
    return this.ms;
  }
}

const S = scope('prod');

describe('memory store', () => {
  test('the default export is the factory, and it refuses the database clock', async () => {
    expect(createMemoryStoreDefault).toBe(createMemoryStore);
    await expect(createMemoryStore({ time: 'database' })).rejects.toThrow(/TimeSource/);
  });

  test('expiry follows the given TimeSource, not the caller', async () => {
    const clock = new VirtualClock(1_000);
    const store = await createMemoryStore({ time: clock, callerClock: new VirtualClock(999_999) });
    const a = await store.execute({ kind: 'Acquire', scope: S, holder: 'A', ttlMs: 100 });
    expect(a).toMatchObject({ kind: 'Acquired', lease: { acquiredAt: 1_000, expiresAt: 1_100 } });
    expect((await store.execute({ kind: 'Acquire', scope: S, holder: 'B', ttlMs: 100 })).kind).toBe('Busy');
    clock.ms = 1_100;
    expect((await store.execute({ kind: 'Acquire', scope: S, holder: 'B', ttlMs: 100 })).kind).toBe('Acquired');
    await store.close();
  });

  test('snapshot and restore: a restored image brings back old leases until the recovery epoch advances', async () => {
    const clock = new VirtualClock();
    const store = await createMemoryStore({ time: clock });
    await store.execute({ kind: 'Acquire', scope: S, holder: 'A', ttlMs: 10_000 });
    const image = await store.snapshot();
    expect(image.adapter).toBe('memory');
    clock.ms = 10_000;
    const b = await store.execute({ kind: 'Acquire', scope: S, holder: 'B', ttlMs: 10_000 });
    expect(b.kind === 'Acquired' && b.lease.token).toBe(2);
    clock.ms = 100;
    await store.restore(image);
    expect(await store.execute({ kind: 'AdvanceRecoveryEpoch', atLeast: 1, blockScopes: [] })).toEqual({ kind: 'RecoveryAdvanced', recoveryEpoch: 1, invalidated: 1 });
    const c = await store.execute({ kind: 'Acquire', scope: S, holder: 'C', ttlMs: 10 });
    expect(c.kind === 'Acquired' && c.lease.token).toBeGreaterThan(2);
  });

  test('restore refuses an image of another adapter or a malformed one', async () => {
    const store = createMemoryStoreSync({ time: new VirtualClock() });
    expect(() => store.restoreSync({ adapter: 'postgres', data: {} })).toThrow(/adapter 'postgres'/);
    expect(() => store.restoreSync({ adapter: 'memory', data: { nope: 1 } })).toThrow(/model state/);
  });

  test('a closed store refuses commands', async () => {
    const store = await createMemoryStore({ time: new VirtualClock() });
    await store.close();
    await expect(store.execute({ kind: 'Inspect' })).rejects.toThrow(/closed/);
  });

  propTest.prop([runArb], { numRuns: 100 })('property: through the port, the memory store returns what the model returns, command for command', async (run) => {
    const clock = new VirtualClock();
    const store = await createMemoryStore({ time: clock });
    let state = initialState();
    for (const command of SETUP) {
      state = step(state, command, 0).state;
      await store.execute(command);
    }
    for (const { advanceMs, command: generated } of run) {
      clock.ms += advanceMs;
      const command = resolveCommand(state, generated, clock.ms);
      const expected = step(state, command, clock.ms);
      state = expected.state;
      expect(await store.execute(command)).toEqual(expected.outcome);
      expect(store.executeSync({ kind: 'Inspect' })).toEqual(step(state, { kind: 'Inspect' }, clock.ms).outcome);
    }
  });
});
