// seed 000 §24, §203–§204, §271: tokens issued per scope are never reused and strictly increase, across faults.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { fencingMonotonic } from '../../../model/checkers/fencing-monotonic.ts';
import { HistoryBuilder, acquired, leaseHeld, lease, failing } from './history-builder.ts';

/** One acquisition per token, in the given order, each completed before the next is invoked. */
function sequentialAcquisitions(tokens: ReadonlyArray<number>): HistoryBuilder {
  const h = new HistoryBuilder();
  tokens.forEach((token, n) => acquired(h, `c${n % 3}#1`, 'env', `holder-${n}`, token));
  return h;
}

describe('fencing-monotonic', () => {
  it('passes increasing tokens across expiry, force release floor and restore', () => {
    const { h } = leaseHeld('A', 1);
    h.op('ops#1', { kind: 'ForceRelease', scope: 'env', expectedToken: 1, actor: 'ops', reason: 'stuck', privileged: true }, {
      kind: 'ForceReleased', nextToken: 3, tombstone: { scope: 'env', holder: 'A', token: 1, endedAt: 2, cause: 'force-released', actor: 'ops', reason: 'stuck' },
    });
    acquired(h, 'c2#1', 'env', 'B', 3);
    h.fault('db-restore', { blockedScopes: [] });
    acquired(h, 'c3#1', 'env', 'C', 1_000_000_001);
    expect(fencingMonotonic(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails when a token repeats after a restore', () => {
    const { h, issued: first } = leaseHeld('A', 5);
    h.fault('db-restore', {});
    const again = acquired(h, 'c2#1', 'env', 'B', 5);
    const [violation] = failing(fencingMonotonic(h.build()), 1);
    expect(violation).toMatchObject({ invariant: 'fencing-monotonic', scope: 'env', events: [first, again] });
    expect(violation?.message).toContain('reused');
  });

  it('fails when a token is issued at or below a force-release nextToken floor', () => {
    const { h } = leaseHeld('A', 1);
    const [, floor] = h.op('ops#1', { kind: 'ForceRelease', scope: 'env', expectedToken: 1, actor: 'ops', reason: 'stuck', privileged: true }, {
      kind: 'ForceReleased', nextToken: 3, tombstone: { scope: 'env', holder: 'A', token: 1, endedAt: 2, cause: 'force-released', actor: 'ops', reason: 'stuck' },
    });
    const low = acquired(h, 'c2#1', 'env', 'B', 2);
    const [violation] = failing(fencingMonotonic(h.build()));
    expect(violation?.events).toContain(floor);
    expect(violation?.events).toContain(low);
  });

  it('judges AcquiredAll and HandedOff leases per scope', () => {
    const h = new HistoryBuilder();
    h.op('c1#1', { kind: 'AcquireAll', scopes: ['a', 'b'], holder: 'A', ttlMs: 100 }, { kind: 'AcquiredAll', leases: [lease('a', 'A', 4), lease('b', 'A', 9)] });
    const handoff = h.op('c1#1', { kind: 'Handoff', scope: 'b', holder: 'A', token: 9, newHolder: 'B', ttlMs: 100 }, { kind: 'HandedOff', lease: lease('b', 'B', 2) })[1];
    const [violation] = failing(fencingMonotonic(h.build()), 1);
    expect(violation).toMatchObject({ scope: 'b' });
    expect(violation?.events).toContain(handoff);
  });

  test.prop([fc.uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 2, maxLength: 20 })])(
    'sequential acquisitions with increasing tokens always pass',
    (tokens) => {
      const increasing = [...tokens].sort((a, b) => a - b);
      expect(fencingMonotonic(sequentialAcquisitions(increasing).build()).valid).toBe(true);
    },
  );

  test.prop([fc.uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 2, maxLength: 20 }), fc.nat()])(
    'swapping two tokens of an increasing sequence always fails',
    (tokens, pick) => {
      const swapped = [...tokens].sort((a, b) => a - b);
      const i = pick % (swapped.length - 1);
      const [low, high] = [swapped[i] as number, swapped[i + 1] as number];
      swapped[i] = high;
      swapped[i + 1] = low;
      const verdict = fencingMonotonic(sequentialAcquisitions(swapped).build());
      expect(verdict.valid).toBe(false);
      expect(verdict.violations.some((v) => v.events?.includes(2 * (i + 1) + 1))).toBe(true);
    },
  );
});
