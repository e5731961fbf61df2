// The clock kit (adapters/clock-kit.ts) makes a library's clock the store's clock (000 §79): before
// each call its timers, intervals and maintenance run in order, each at its own virtual time; it
// fakes only what it is put on; and an error escaping the library through it is thrown from the
// next execute, naming the call in flight, never left to end the process.

import { describe, expect, test } from 'vitest';
import { clockKit } from '../../adapters/clock-kit.ts';
import type { Store } from '../../adapters/port.ts';
import { StoreEscapeError } from '../../adapters/store-escape.ts';
import type { Command } from '../../model/commands.ts';

const INSPECT = { kind: 'Inspect' } as Command;
const C1 = { process: 'c1#1', node: 'c1' };

function library(): Store {
  const store = {
    name: 'library',
    async execute() {
      return { kind: 'Inspected' } as never;
    },
    async lifecycle() {},
    async close() {},
  };
  return store;
}

describe('the clock kit', () => {
  test('timers, intervals and maintenance run in order at their virtual times, before the call that follows them', async () => {
    const time = { t: 1_000 };
    const kit = clockKit({ now: () => time.t });
    const seen: string[] = [];
    kit.clock.setInterval(() => seen.push(`interval ${kit.clock.Date.now()}`), 100);
    kit.clock.setTimeout(() => seen.push(`timeout ${kit.clock.Date.now()}`), 150);
    // An async maintenance step that goes on after an await still reads its own virtual time.
    kit.every(250, async () => {
      await Promise.resolve();
      seen.push(`maintenance ${kit.clock.Date.now()}`);
    });
    const inner = library();
    const store = kit.drive({ ...inner, execute: async (c) => (seen.push(`call ${kit.clock.Date.now()}`), inner.execute(c)) });
    time.t = 1_300;
    await store.execute(INSPECT, C1);
    expect(seen).toEqual(['interval 1100', 'timeout 1150', 'interval 1200', 'maintenance 1250', 'interval 1300', 'call 1300']);
    // Store time standing still, or a TimeSource that went back, runs nothing and moves nothing.
    time.t = 1_200;
    await store.execute(INSPECT, C1);
    expect(kit.clock.now).toBe(1_300);
  });

  test('only what it is put on is faked, and close puts the originals back', async () => {
    const target: Record<string, unknown> = { Date, setTimeout };
    const kit = clockKit({ now: () => 5_000 });
    kit.install(target, ['Date', 'setTimeout']);
    expect((target.Date as DateConstructor).now()).toBe(5_000);
    expect(Date.now()).toBeGreaterThan(1_600_000_000_000);
    await kit.drive(library()).close();
    expect(target.Date).toBe(Date);
    expect(target.setTimeout).toBe(setTimeout);
  });

  test.each([
    ['a timer that throws', (kit: ReturnType<typeof clockKit>) => kit.clock.setTimeout(() => { throw new Error('boom'); }, 50), /during Acquire from c1#1 \(from a timeout of 50 ms set at virtual time 0, at virtual time 50\): boom/],
    ['an interval whose promise rejects', (kit: ReturnType<typeof clockKit>) => kit.clock.setInterval(async () => { throw new Error('async boom'); }, 40), /from an interval of 40 ms .*: async boom/],
    ['a maintenance step that throws', (kit: ReturnType<typeof clockKit>) => kit.every(30, () => { throw new TypeError('sweep broke'); }), /from the maintenance every 30 ms, at virtual time 30\): TypeError: sweep broke/],
  ])('%s: the next execute throws a StoreEscapeError naming the call, and the store goes on', async (_, arm, message) => {
    const time = { t: 0 };
    const kit = clockKit({ now: () => time.t });
    const store = kit.drive(library());
    arm(kit);
    time.t = 60;
    const thrown = await store.execute({ kind: 'Acquire', scope: 's', holder: 'c1#1', ttlMs: 100 } as Command, C1).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(StoreEscapeError);
    expect(String((thrown as Error).message)).toMatch(message);
    kit.clock.reset();
    await expect(store.execute(INSPECT, C1)).resolves.toEqual({ kind: 'Inspected' });
  });

  test('an error escaping during a lifecycle event is thrown by the next execute, naming the event', async () => {
    const time = { t: 0 };
    const kit = clockKit({ now: () => time.t });
    const store = kit.drive(library());
    kit.clock.setTimeout(() => { throw new Error('late'); }, 10);
    time.t = 20;
    await store.lifecycle!({ kind: 'crash', process: 'c2#1', node: 'c2' });
    await expect(store.execute(INSPECT, C1)).rejects.toThrow(/during lifecycle crash of c2#1 .*: late/);
  });

  test('calls made at once bring the clock to store time, never past it', async () => {
    const time = { t: 1_000 };
    const kit = clockKit({ now: () => time.t });
    const fired: number[] = [];
    kit.clock.setInterval(() => fired.push(kit.clock.Date.now()), 100);
    const store = kit.drive(library());
    time.t = 1_500;
    await Promise.all([store.execute(INSPECT, C1), store.execute(INSPECT, C1), store.execute(INSPECT, C1)]);
    expect(kit.clock.now).toBe(1_500);
    expect(fired).toEqual([1_100, 1_200, 1_300, 1_400, 1_500]);
  });

  test("a store on the database's own clock has no virtual time to follow", () => {
    expect(() => clockKit('database')).toThrow(/follows a TimeSource/);
  });
});
