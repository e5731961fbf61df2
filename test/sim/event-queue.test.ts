// seed 000 §299 / docs/ARCHITECTURE.md "Time and determinism": the agenda pops by time, ties by insertion order.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { test as propTest } from '@fast-check/vitest';
import fc from 'fast-check';
import { EventQueue } from '../../sim/event-queue.ts';

describe('EventQueue', () => {
  it('pops events in time order and breaks ties by insertion sequence', () => {
    const q = new EventQueue();
    q.push(5, 1, 0, 0, 'c');
    q.push(1, 1, 0, 0, 'a');
    q.push(5, 1, 0, 0, 'd');
    q.push(1, 1, 0, 0, 'b');
    q.push(3, 1, 0, 0, 'x');
    const order: unknown[] = [];
    for (let e = q.pop(); e !== undefined; e = q.pop()) order.push(e.data);
    expect(order).toEqual(['a', 'b', 'x', 'c', 'd']);
  });

  it('rejects a non-integer or negative time', () => {
    const q = new EventQueue();
    expect(() => q.push(1.5, 1, 0, 0, null)).toThrow(/integer/);
    expect(() => q.push(-1, 1, 0, 0, null)).toThrow(/negative/);
  });

  it('a typed agenda takes each kind with its own data, and a switch on the kind narrows it (checked by tsc)', () => {
    const q = new EventQueue<{ readonly 1: string; readonly 2: { readonly n: number } }>();
    q.push(0, 1, 0, 0, 'text');
    q.push(0, 2, 0, 0, { n: 7 });
    // @ts-expect-error: kind 2 carries { n }, not a string
    expect(() => q.push(0, 2, 0, 0, 'wrong')).not.toThrow();
    // @ts-expect-error: no kind 3 on this agenda
    expect(() => q.push(0, 3, 0, 0, null)).not.toThrow();
    const seen: unknown[] = [];
    for (let e = q.pop(); e !== undefined; e = q.pop()) {
      if (e.kind === 1) expectTypeOf(e.data).toEqualTypeOf<string>();
      else expectTypeOf(e.data).toEqualTypeOf<{ readonly n: number }>();
      seen.push(e.data);
    }
    expect(seen).toEqual(['text', { n: 7 }, 'wrong', null]);
  });

  propTest.prop([fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 300 })])('any push order pops sorted by (time, sequence)', (times) => {
    const q = new EventQueue();
    times.forEach((t, i) => q.push(t, 0, i, 0, null));
    const popped: Array<{ time: number; a: number }> = [];
    for (let e = q.pop(); e !== undefined; e = q.pop()) popped.push({ time: e.time, a: e.a });
    const expected = times.map((time, a) => ({ time, a })).sort((x, y) => x.time - y.time || x.a - y.a);
    expect(popped).toEqual(expected);
  });
});
