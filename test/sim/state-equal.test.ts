// sim/state-equal.ts: two model states are equal as data, whether or not they share their parts,
// and differ when any map, set, array or field does.

import { describe, expect, test } from 'vitest';
import { sameState } from '../../sim/state-equal.ts';

describe('sameState', () => {
  const lease = { scope: 's', holder: 'a', token: 1, acquiredAt: 0, expiresAt: 10 };
  const state = () => ({ epoch: 1, leases: new Map([['s', { ...lease }]]), blocked: new Set(['x']), queue: [{ id: 'w', at: 3 }], log: { last: 1, before: null } });

  test('equal data built apart is equal; shared parts are equal at once', () => {
    expect(sameState(state(), state())).toBe(true);
    const a = state();
    expect(sameState(a, { ...a })).toBe(true);
  });

  test.each([
    ['a field of a map value', (s: ReturnType<typeof state>) => s.leases.set('s', { ...lease, expiresAt: 11 })],
    ['a map key', (s: ReturnType<typeof state>) => s.leases.set('t', { ...lease })],
    ['a set member', (s: ReturnType<typeof state>) => s.blocked.add('y')],
    ['an array item', (s: ReturnType<typeof state>) => (s.queue[0]!.at = 4)],
    ['a nested object', (s: ReturnType<typeof state>) => (s.log = { last: 2, before: null })],
  ])('a difference in %s is seen', (_, change) => {
    const b = state();
    change(b);
    expect(sameState(state(), b)).toBe(false);
  });

  test('a map is not a set, an array or a plain object', () => {
    expect(sameState(new Map(), new Set())).toBe(false);
    expect(sameState(new Map(), [])).toBe(false);
    expect(sameState([], {})).toBe(false);
    expect(sameState({ a: 1 }, { a: 1, b: undefined })).toBe(false);
  });
});
