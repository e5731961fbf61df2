// seed 000 §200–§206, §290: force release needs privilege, a reason and the exact token, and leaves an audited tombstone.
import { describe, expect, it } from 'vitest';
import type { ForceReleaseCommand } from '../../../model/commands.ts';
import type { Tombstone } from '../../../model/outcomes.ts';
import { forceReleaseAudited } from '../../../model/checkers/force-release-audited.ts';
import { HistoryBuilder, acquired, leaseHeld, failing } from './history-builder.ts';

const TTL = 10_000;
const command: ForceReleaseCommand = { kind: 'ForceRelease', scope: 'env', expectedToken: 7, actor: 'ops', reason: 'holder crashed, provider inspected', privileged: true };
const tombstone: Tombstone = { scope: 'env', holder: 'A', token: 7, endedAt: 3, cause: 'force-released', actor: 'ops', reason: 'holder crashed, provider inspected' };

describe('force-release-audited', () => {
  it('passes a privileged, reasoned, exact-token force release with an audited tombstone', () => {
    const { h } = leaseHeld('A', 7);
    h.at(TTL);
    h.op('ops#1', command, { kind: 'ForceReleased', tombstone, nextToken: 9 });
    h.op('ops#1', { ...command, privileged: false }, { kind: 'Denied', reason: 'not-privileged' });
    expect(forceReleaseAudited(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails a force release answered ForceReleased without privilege', () => {
    const { h } = leaseHeld('A', 7);
    h.at(TTL);
    const [invoke, ok] = h.op('ops#1', { ...command, privileged: false }, { kind: 'ForceReleased', tombstone, nextToken: 9 });
    const [violation] = failing(forceReleaseAudited(h.build()));
    expect(violation).toMatchObject({ invariant: 'force-release-audited', scope: 'env', events: [invoke, ok] });
    expect(violation?.message).toContain('not privileged');
  });

  it('fails a key-only force release that removed a newer lease than the expected token', () => {
    const { h } = leaseHeld('A', 7);
    h.at(TTL);
    acquired(h, 'c2#1', 'env', 'B', 8);
    const [invoke, ok] = h.op('ops#1', command, { kind: 'ForceReleased', tombstone: { ...tombstone, holder: 'B', token: 8, actor: undefined }, nextToken: 10 });
    const [violation] = failing(forceReleaseAudited(h.build()));
    expect(violation?.events).toEqual([invoke, ok]);
    expect(violation?.message).toMatch(/not the expected token 7.*no actor/);
  });

  it('fails when the tombstone names a holder other than the one the token was issued to', () => {
    const { h, issued } = leaseHeld('A', 7);
    h.at(TTL);
    const [invoke, ok] = h.op('ops#1', command, { kind: 'ForceReleased', tombstone: { ...tombstone, holder: 'Z' }, nextToken: 9 });
    const [violation] = failing(forceReleaseAudited(h.build()));
    expect(violation?.events).toEqual([issued, invoke, ok]);
  });

  it('fails a force that removed a lease renewed after the expiry it expected was set (seed 002 022d1f8)', () => {
    const { h } = leaseHeld('A', 7);
    h.at(TTL);
    const [, renewed] = h.op('c1#1', { kind: 'Renew', scope: 'env', holder: 'A', expectedToken: 7, ttlMs: TTL }, { kind: 'Renewed', lease: { scope: 'env', holder: 'A', token: 7, acquiredAt: 0, expiresAt: 2 * TTL } });
    h.op('ops#1', { ...command, expectedExpiresAt: TTL }, { kind: 'ForceReleased', tombstone: { ...tombstone, endedAt: TTL + 5 }, nextToken: 9 });
    const [violation] = failing(forceReleaseAudited(h.build()));
    expect(violation?.message).toMatch(/a renewal \(#\d+\) had moved the lease's expiry to 20000 before the force ended it, so it was not the lease with the expected expiry 10000/);
    expect(violation?.events).toContain(renewed);
  });

  it('passes a force of the expiry a later, shorter renewal set (store order, not the size of the expiry)', () => {
    const { h } = leaseHeld('A', 7);
    h.op('c1#1', { kind: 'Renew', scope: 'env', holder: 'A', expectedToken: 7, ttlMs: TTL }, { kind: 'Renewed', lease: { scope: 'env', holder: 'A', token: 7, acquiredAt: 0, expiresAt: 2_000 + TTL } });
    h.op('c1#1', { kind: 'Renew', scope: 'env', holder: 'A', expectedToken: 7, ttlMs: 2_000 }, { kind: 'Renewed', lease: { scope: 'env', holder: 'A', token: 7, acquiredAt: 0, expiresAt: 5_000 } });
    h.at(TTL);
    h.op('ops#1', { ...command, expectedExpiresAt: 5_000 }, { kind: 'ForceReleased', tombstone: { ...tombstone, endedAt: 4_000 }, nextToken: 9 });
    expect(forceReleaseAudited(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('asks that a token was burned (nextToken at least two above), unless the store declared semantics of its own', () => {
    const noBurn = (ownSemantics: boolean) => {
      const h = new HistoryBuilder();
      if (ownSemantics) h.truth('own-semantics', {});
      acquired(h, 'c1#1', 'env', 'A', 7);
      h.at(TTL);
      h.op('ops#1', command, { kind: 'ForceReleased', tombstone, nextToken: 8 });
      return forceReleaseAudited(h.build());
    };
    expect(noBurn(false).violations[0]?.message).toContain('nextToken 8 is not at least two above the removed token 7: no token was burned');
    expect(noBurn(true)).toEqual({ valid: true, violations: [] });
  });
});
