// seed 000 §157–§160, seed 002 "Why staged" 2 (stallable-refresh-call), seed 003 0892821: a handler works
// only while it can know its lease holds, within one TTL of the latest grant or renewal it requested,
// and never after a renewal was refused or the lease released.
import { describe, expect, it } from 'vitest';
import { workWithinLease } from '../../../model/checkers/work-within-lease.ts';
import { HistoryBuilder, acquired, lease } from './history-builder.ts';

const TTL = 10_000;
const step = { scope: 'env', token: 7, holder: 'A', process: 'c1#1' };
const renew = { kind: 'Renew', scope: 'env', holder: 'A', expectedToken: 7, ttlMs: TTL } as const;

describe('work-within-lease', () => {
  it('passes steps within a TTL of the latest renewal requested, and fails one past it', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env', 'A', 7);
    h.at(TTL - 10).truth('work-step', step);
    h.at(TTL / 2).op('c1#1:hb1', renew, { kind: 'Renewed', lease: lease('env', 'A', 7, TTL / 2) });
    h.at(TTL / 2 + TTL).truth('work-step', step);
    expect(workWithinLease(h.build()).valid).toBe(true);
    const late = h.at(TTL / 2 + TTL + 1).truth('work-step', step);
    const verdict = workWithinLease(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations).toHaveLength(1);
    expect(verdict.violations[0]!.message).toMatch(/token 7 worked on by c1#1 at t=15001, 1 ms after its lease could last: its latest Renewed was requested at t=5000 for 10000 ms/);
    expect(verdict.violations[0]!.events).toContain(late);
  });

  it('on a store whose renewals only confirm, a Renewed vouches for nothing past the grant', () => {
    const h = new HistoryBuilder();
    h.at(0).truth('renewal', { kind: 'confirms' });
    acquired(h, 'c1#1', 'env', 'A', 7);
    h.at(TTL / 2).op('c1#1:hb1', renew, { kind: 'Renewed', lease: lease('env', 'A', 7, 0) });
    h.at(TTL + 5).truth('work-step', step);
    expect(workWithinLease(h.build()).violations[0]?.message).toMatch(/4 ms after its lease could last: its latest Acquired was requested at t=1/);
  });

  it('counts a renewal only once its reply is in the history: a renewal still hanging vouches for nothing', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env', 'A', 7);
    h.at(TTL / 2).invoke('c1#1:hb1', 'Renew', renew);
    h.at(TTL + 5).truth('work-step', step);
    h.at(TTL + 50).event('c1#1:hb1', 'ok', 'Renew', { kind: 'Renewed', lease: lease('env', 'A', 7, TTL / 2) });
    expect(workWithinLease(h.build()).violations[0]?.message).toMatch(/5 ms after its lease could last: its latest Acquired/);
  });

  it('fails a step after a refused renewal or after the release, even within the TTL', () => {
    const refused = new HistoryBuilder();
    acquired(refused, 'c1#1', 'env', 'A', 7);
    refused.op('c1#1:hb1', renew, { kind: 'Rejected', reason: 'not-holder' });
    refused.truth('work-step', step);
    expect(workWithinLease(refused.build()).violations[0]?.message).toMatch(/after its renewal was refused \(Rejected\)/);
    const released = new HistoryBuilder();
    acquired(released, 'c1#1', 'env', 'A', 7);
    released.op('c1#1', { kind: 'Release', scope: 'env', holder: 'A', token: 7 }, { kind: 'Released' });
    released.truth('work-step', step);
    expect(workWithinLease(released.build()).violations[0]?.message).toMatch(/after c1#1 released it/);
  });

  it('fails a step under a token never granted', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env', 'A', 6);
    h.truth('work-step', step);
    expect(workWithinLease(h.build()).violations[0]?.message).toMatch(/no grant of it reported before/);
  });
});
