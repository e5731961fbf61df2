// seed 000 §6, §156: the scope digest is a correct SHA-256, checked against FIPS 180-4 vectors.

import { describe, expect, test } from 'vitest';
import { sha256Hex, utf8Bytes } from '../../model/digest.ts';

describe('sha256', () => {
  test.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
    [
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    ],
    ['The quick brown fox jumps over the lazy dog', 'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592'],
  ])('known vector %#', (input, expected) => {
    expect(sha256Hex(input)).toBe(expected);
  });

  test('one million times "a"', () => {
    expect(sha256Hex('a'.repeat(1_000_000))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  test('lengths around the padding boundary differ from each other', () => {
    const digests = new Set([55, 56, 57, 63, 64, 65].map((n) => sha256Hex('x'.repeat(n))));
    expect(digests.size).toBe(6);
  });

  test('UTF-8 encoding matches TextEncoder, surrogate pairs included', () => {
    for (const text of ['é', '€', '𝄞', 'a\u{10FFFF}b', '\uD800x']) {
      expect([...utf8Bytes(text)]).toEqual([...new TextEncoder().encode(text)]);
    }
  });
});
