// seed 000 §25, §162, §281: one holder per (scope, token), and no write accepted under a token below one already accepted.
import { describe, expect, it } from 'vitest';
import { oneOwnerPerEpoch } from '../../../model/checkers/one-owner-per-epoch.ts';
import { HistoryBuilder, acquired, leaseHeld, mutated, failing } from './history-builder.ts';

describe('one-owner-per-epoch', () => {
  it('passes a handover from A (token 7) to B (token 8) with each writing under its own token', () => {
    const { h } = leaseHeld('A', 7);
    mutated(h, 'c1#1', 'env', 'A', 7, 0);
    h.truth('mutation-accepted', { scope: 'env', aggregate: 'agg', token: 7, holder: 'A', version: 1 });
    acquired(h, 'c2#1', 'env', 'B', 8);
    mutated(h, 'c2#1', 'env', 'B', 8, 1);
    expect(oneOwnerPerEpoch(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails when two holders are granted the same token on a scope', () => {
    const { h, issued: first } = leaseHeld('A', 7);
    h.fault('db-failover', {});
    const second = acquired(h, 'c2#1', 'env', 'B', 7);
    const [violation] = failing(oneOwnerPerEpoch(h.build()));
    expect(violation).toMatchObject({ invariant: 'one-owner-per-epoch', scope: 'env', events: [first, second] });
    expect(violation?.message).toContain('across db-failover #2');
  });

  it('fails when a stale owner writes under token 7 after token 8 was accepted (§25)', () => {
    const { h } = leaseHeld('A', 7);
    acquired(h, 'c2#1', 'env', 'B', 8);
    const newer = h.truth('mutation-accepted', { scope: 'env', aggregate: 'agg', token: 8, holder: 'B', version: 1 });
    const stale = h.truth('effect-applied', { intentId: 'i1', scope: 'env', token: 7, holder: 'A', operation: 'deploy' });
    const [violation] = failing(oneOwnerPerEpoch(h.build()), 1);
    expect(violation?.events).toEqual([newer, stale]);
    expect(violation?.message).toMatch(/stale owner A/);
  });

  it('does not order two writes whose operations overlap in time', () => {
    const h = new HistoryBuilder();
    h.invoke('c1#1', 'Mutate', { kind: 'Mutate', scope: 'env', aggregate: 'x', holder: 'A', token: 7, expectedVersion: 0 });
    mutated(h, 'c2#1', 'env', 'B', 8);
    h.event('c1#1', 'ok', 'Mutate', { kind: 'Accepted', version: 1, token: 7 });
    expect(oneOwnerPerEpoch(h.build()).valid).toBe(true);
  });
});
