// seed 000 §279, §82: at any instant of store time a scope has at most one live lease, whatever the clients' clocks say.
import { describe, expect, it } from 'vitest';
import { leaseExclusive } from '../../../model/checkers/lease-exclusive.ts';
import { HistoryBuilder, acquire, lease, failing } from './history-builder.ts';

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
    const [violation] = failing(leaseExclusive(h.build()));
    expect(violation).toMatchObject({ invariant: 'lease-exclusive', scope: 'env' });
    expect(violation?.events).toEqual(expect.arrayContaining([first, second]));
    expect(violation?.message).toContain('token 2 granted to B at store time 400 while token 1 of A was valid until 1000');
  });

  it('fails when a renewal extends the old lease past the next grant', () => {
    const h = new HistoryBuilder();
    granted(h, 'c1#1', 'A', 1, 0);
    h.op('c1#1', { kind: 'Renew', scope: 'env', holder: 'A', expectedToken: 1, ttlMs: 1_000 }, { kind: 'Renewed', lease: lease('env', 'A', 1, 0, 1_900) });
    granted(h, 'c2#1', 'B', 2, 1_500);
    expect(leaseExclusive(h.build()).valid).toBe(false);
  });
});

// 000 §74: a session lock disappears with its connection. A lease that the store says ended with its
// holder's session is over from then on; a store whose leases live by their sessions is judged by
// those ends, not by the expiry it reported.
describe('lease-exclusive, leases that end with their sessions', () => {
  const sessionEnded = (h: HistoryBuilder, holder: string, token: number) => h.truth('session-ended', { scope: 'env', holder, token, cause: 'cut-off', process: holder });
  const write = (h: HistoryBuilder, holder: string, token: number) =>
    h.op(holder, { kind: 'Mutate', scope: 'env', aggregate: 'a', holder, token, expectedVersion: 0 }, { kind: 'Accepted', version: 1, token });

  it('fails a write accepted under a lease after it ended with its session, though its TTL had not passed', () => {
    const h = new HistoryBuilder();
    granted(h, 'A', 'A', 1, 0);
    const ended = sessionEnded(h, 'A', 1);
    h.at(10);
    const [invoked] = write(h, 'A', 1);
    const [violation] = failing(leaseExclusive(h.build()));
    expect(violation?.message).toContain('write accepted by A under token 1');
    expect(violation?.message).toContain('after that lease ended with its session');
    expect(violation?.events).toEqual(expect.arrayContaining([ended, invoked]));
  });

  it('passes a write sent before the session ended, and a grant to the next holder after it', () => {
    const h = new HistoryBuilder();
    granted(h, 'A', 'A', 1, 0);
    h.invoke('A', 'Mutate', { kind: 'Mutate', scope: 'env', aggregate: 'a', holder: 'A', token: 1, expectedVersion: 0 });
    sessionEnded(h, 'A', 1);
    h.event('A', 'ok', 'Mutate', { kind: 'Accepted', version: 1, token: 1 });
    h.at(10);
    granted(h, 'B', 'B', 2, 10);
    expect(leaseExclusive(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('with session-bound leases, a lease outlives its reported expiry: a second grant before its session ends fails, a renewal after the expiry passes', () => {
    const h = new HistoryBuilder();
    h.truth('session-leases', {});
    granted(h, 'A', 'A', 1, 0);
    h.at(5_000);
    h.op('A', { kind: 'Renew', scope: 'env', holder: 'A', expectedToken: 1, ttlMs: 1_000 }, { kind: 'Renewed', lease: lease('env', 'A', 1, 0, 6_000) });
    expect(leaseExclusive(h.build()).valid).toBe(true);
    h.at(8_000);
    granted(h, 'B', 'B', 2, 8_000);
    const [violation] = failing(leaseExclusive(h.build()));
    expect(violation?.message).toContain('token 2 granted to B at store time 8000 while token 1 of A was valid until Infinity');
  });

  it('with session-bound leases, a grant after the session ended passes', () => {
    const h = new HistoryBuilder();
    h.truth('session-leases', {});
    granted(h, 'A', 'A', 1, 0);
    h.at(2_000);
    sessionEnded(h, 'A', 1);
    granted(h, 'B', 'B', 2, 2_000);
    expect(leaseExclusive(h.build())).toEqual({ valid: true, violations: [] });
  });
});
