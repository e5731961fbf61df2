// seed 000 §21–§22, §99–§105: every lease a store names (a Busy answer, an Inspect view) was granted
// to that holder with that token by an answered call, or may have been by a call whose outcome is
// unknown; a lease nobody was told they hold is a phantom.
import { describe, expect, it } from 'vitest';
import { noPhantomLease } from '../../../model/checkers/no-phantom-lease.ts';
import { HistoryBuilder, acquire, acquired, lease } from './history-builder.ts';

const busy = (holder: string, token: number) => ({ kind: 'Busy', holder, token, expiresAt: 10_000 });

describe('no-phantom-lease', () => {
  it('passes leases named after they were granted, by Acquire, AcquireAll or Handoff, and named before the grant was answered', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env:a', 'A', 1);
    h.op('c2#1', acquire('env:a', 'B'), busy('A', 1));
    h.op('c3#1', { kind: 'AcquireAll', scopes: ['env:b', 'env:c'], holder: 'C', ttlMs: 10_000 }, { kind: 'AcquiredAll', leases: [lease('env:b', 'C', 1), lease('env:c', 'C', 1)] });
    h.op('c1#1', { kind: 'Handoff', scope: 'env:a', holder: 'A', token: 1, newHolder: 'A:verify', ttlMs: 10_000 }, { kind: 'HandedOff', lease: lease('env:a', 'A:verify', 2) });
    h.op('c2#1', { kind: 'Inspect' }, { kind: 'Snapshot', view: { leases: [lease('env:a', 'A:verify', 2), lease('env:b', 'C', 1)] } });
    // Named by a Busy answer that completed before the grant's own answer arrived.
    h.invoke('c4#1', 'Acquire', acquire('env:d', 'D'));
    h.op('c5#1', acquire('env:d', 'E'), busy('D', 1));
    h.event('c4#1', 'ok', 'Acquire', { kind: 'Acquired', lease: lease('env:d', 'D', 1) });
    expect(noPhantomLease(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('passes a lease whose grant may have happened: its call timed out or never answered', () => {
    const h = new HistoryBuilder();
    h.invoke('c1#1', 'Acquire', acquire('env:a', 'A'));
    h.event('c1#1', 'info', 'Acquire', { error: 'timeout' });
    h.op('c2#1', acquire('env:a', 'B'), busy('A', 1));
    h.invoke('c3#1', 'AcquireAll', { kind: 'AcquireAll', scopes: ['env:b'], holder: 'C', ttlMs: 10_000 });
    h.op('c2#1', acquire('env:b', 'B'), busy('C', 1));
    expect(noPhantomLease(h.build()).valid).toBe(true);
  });

  it('fails on the scopes an AcquireAll answered Busy kept, naming the answer that shows it, once', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env:b', 'A', 1);
    h.op('c2#1', { kind: 'AcquireAll', scopes: ['env:a', 'env:b'], holder: 'B', ttlMs: 10_000 }, { kind: 'Busy', scope: 'env:b', holder: 'A', token: 1 });
    const [, shown] = h.op('c3#1', acquire('env:a', 'C'), busy('B', 1));
    h.op('c3#1', acquire('env:a', 'C'), busy('B', 1));
    const verdict = noPhantomLease(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations).toHaveLength(1);
    expect(verdict.violations[0]).toMatchObject({ invariant: 'no-phantom-lease', scope: 'env:a', events: [shown] });
    expect(verdict.violations[0]!.message).toContain('holder B with token 1');
  });

  it('fails on a granted holder named with a token it was never given, and on a lease an Inspect view invents', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env:a', 'A', 1);
    h.op('c2#1', acquire('env:a', 'B'), busy('A', 2));
    h.op('c2#1', { kind: 'Inspect' }, { kind: 'Snapshot', view: { leases: [lease('env:z', 'Z', 7)] } });
    const verdict = noPhantomLease(h.build());
    expect(verdict.violations.map((v) => v.scope)).toEqual(['env:a', 'env:z']);
  });
});
