// seed 000 §279, §82: at any instant of store time a scope has at most one live lease, whatever the clients' clocks say.
import { describe, expect, it } from 'vitest';
import { leaseExclusive } from '../../../model/checkers/lease-exclusive.ts';
import { HistoryBuilder, acquire, lease } from './history-builder.ts';

const granted = (h: HistoryBuilder, process: string, holder: string, token: number, acquiredAt: number, ttlMs = 1_000) =>
  h.op(process, acquire('env', holder, ttlMs), { kind: 'Acquired', lease: lease('env', holder, token, acquiredAt, ttlMs) })[1];

describe('lease-exclusive', () => {
  it('passes a grant after the previous lease expired, and one after a release', () => {
    const h = new HistoryBuilder();
    granted(h, 'c1#1', 'A', 1, 0);
    h.at(1_000);
    granted(h, 'c2#1', 'B', 2, 1_000);
    h.op('c2#1', { kind: 'Release', scope: 'env', holder: 'B', token: 2 }, { kind: 'Released', token: 2 });
    granted(h, 'c3#1', 'C', 3, 1_003);
    expect(leaseExclusive(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('passes when a release whose reply was lost may have ended the lease', () => {
    const h = new HistoryBuilder();
    granted(h, 'c1#1', 'A', 1, 0);
    h.invoke('c1#1', 'Release', { kind: 'Release', scope: 'env', holder: 'A', token: 1 });
    h.event('c1#1', 'info', 'Release', { error: 'timeout' });
    granted(h, 'c2#1', 'B', 2, 10);
    expect(leaseExclusive(h.build()).valid).toBe(true);
  });

  it('fails when a second owner is granted while the first lease is still valid in store time', () => {
    const h = new HistoryBuilder();
    const first = granted(h, 'c1#1', 'A', 1, 0);
    const second = granted(h, 'c2#1', 'B', 2, 400);
    const verdict = leaseExclusive(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]).toMatchObject({ invariant: 'lease-exclusive', scope: 'env' });
    expect(verdict.violations[0]?.events).toEqual(expect.arrayContaining([first, second]));
    expect(verdict.violations[0]?.message).toContain('token 2 granted to B at store time 400 while token 1 of A was valid until 1000');
  });

  it('fails when a renewal extends the old lease past the next grant', () => {
    const h = new HistoryBuilder();
    granted(h, 'c1#1', 'A', 1, 0);
    h.op('c1#1', { kind: 'Renew', scope: 'env', holder: 'A', expectedToken: 1, ttlMs: 1_000 }, { kind: 'Renewed', lease: lease('env', 'A', 1, 0, 1_900) });
    granted(h, 'c2#1', 'B', 2, 1_500);
    expect(leaseExclusive(h.build()).valid).toBe(false);
  });
});
