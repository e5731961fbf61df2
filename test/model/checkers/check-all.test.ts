// Jepsen composition: checkers run by name, a throwing checker yields 'unknown' (never a pass), and false outranks unknown.
import { describe, expect, it } from 'vitest';
import { CHECKERS, INVARIANT_NAMES, checkAll } from '../../../model/checkers/index.ts';
import { HistoryBuilder, acquired } from './history-builder.ts';

describe('checkAll', () => {
  it('passes a clean history on every invariant', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env', 'A', 1);
    const verdict = checkAll(h.build(), INVARIANT_NAMES);
    expect(verdict.valid).toBe(true);
    expect(Object.keys(verdict.byInvariant).sort()).toEqual([...INVARIANT_NAMES].sort());
  });


  it('yields unknown for a checker that throws, with the reason', () => {
    const throwing = { ...CHECKERS, capacity: () => { throw new Error('boom'); } };
    const verdict = checkAll([], ['capacity', 'fencing-monotonic'], throwing);
    expect(verdict.valid).toBe('unknown');
    expect(verdict.byInvariant.capacity?.valid).toBe('unknown');
    expect(verdict.byInvariant['fencing-monotonic']?.valid).toBe(true);
    expect(verdict.violations[0]).toMatchObject({ invariant: 'capacity', message: 'checker could not decide: boom' });
  });

  it('yields unknown for a malformed history rather than a pass', () => {
    const h = new HistoryBuilder();
    h.event('c1#1', 'ok', 'Acquire', { kind: 'Busy' });
    expect(checkAll(h.build(), ['one-owner-per-epoch']).valid).toBe('unknown');
  });

  it('is false when any invariant is false, even if another is unknown', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env', 'A', 2);
    acquired(h, 'c2#1', 'env', 'B', 1);
    const throwing = { ...CHECKERS, liveness: () => { throw new Error('boom'); } };
    const verdict = checkAll(h.build(), ['fencing-monotonic', 'liveness'], throwing);
    expect(verdict.valid).toBe(false);
    expect(verdict.violations.map((v) => v.invariant)).toEqual(['fencing-monotonic', 'liveness']);
  });
});
