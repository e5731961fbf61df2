// Outcome equality (model/data-equal.ts): structure and values count; key order and keys whose
// value is undefined do not.

import { expect, test } from 'vitest';
import { sameData } from '../../model/data-equal.ts';

test('equal data in another key order is the same', () => {
  expect(sameData({ kind: 'Acquired', lease: { token: 1, holder: 'A' } }, { lease: { holder: 'A', token: 1 }, kind: 'Acquired' })).toBe(true);
});

test('an undefined key is the same as an absent one', () => {
  expect(sameData({ kind: 'Stale', currentToken: null, extra: undefined }, { kind: 'Stale', currentToken: null })).toBe(true);
  expect(sameData({ kind: 'Stale' }, { kind: 'Stale', extra: undefined })).toBe(true);
});

test('any difference of value, key, type or length is a difference', () => {
  expect(sameData({ token: 1 }, { token: 2 })).toBe(false);
  expect(sameData({ token: 1 }, { token: '1' })).toBe(false);
  expect(sameData({ token: null }, { token: 0 })).toBe(false);
  expect(sameData({ token: null }, {})).toBe(false);
  expect(sameData({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  expect(sameData([1, 2], [1, 2, 3])).toBe(false);
  expect(sameData([1, 2], { 0: 1, 1: 2 })).toBe(false);
  expect(sameData({ leases: [{ token: 1 }] }, { leases: [{ token: 1, holder: 'A' }] })).toBe(false);
});
