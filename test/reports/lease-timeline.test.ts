// seed 000 §315 (high contention is observable): the timeline and the wait plot read holders, tokens, faults, violations and waits straight from a history.

import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../model/history.ts';
import { leaseTimeline } from '../../reports/lease-timeline.ts';
import { waitStats, waitTimes } from '../../reports/wait-times.ts';
import { CLEAN_HISTORY, CLEAN_RUN, STALE_HISTORY, STALE_RUN } from './fixtures.ts';

describe('leaseTimeline', () => {
  it('draws one bar per lease with its token, ending at expiry for the paused holder', () => {
    const t = leaseTimeline(STALE_RUN);
    expect(t.bars).toEqual([
      { scope: 'env:prod/deploy', holder: 'c1', token: 1, start: 2, end: 1002, endedBy: 'expired' },
      { scope: 'env:prod/deploy', holder: 'c2', token: 2, start: 1012, end: 1902, endedBy: 'released' },
    ]);
    expect(t.rows).toEqual([
      { scope: 'env:prod/deploy', holder: 'c1' },
      { scope: 'env:prod/deploy', holder: 'c2' },
    ]);
    expect(t.endTime).toBe(2002);
  });

  it('pairs each fault with the fault that ends it', () => {
    expect(leaseTimeline(STALE_RUN).faults.map(({ kind, start, end }) => ({ kind, start, end }))).toEqual([
      { kind: 'pause', start: 300, end: 1400 },
      { kind: 'partition', start: 1500, end: 1800 },
    ]);
    expect(leaseTimeline(STALE_RUN).faults.map((f) => f.nodes)).toEqual([['c1'], []]);
  });

  it('places each violation once, on the row of the holder whose event shows it', () => {
    const t = leaseTimeline(STALE_RUN);
    // The violation names the stale write's invoke and its answer: one cross, on the answer, and no link within its own row.
    expect(t.violations.map(({ time, scope, holder, invariant, conflicts }) => ({ time, scope, holder, invariant, conflicts }))).toEqual([
      { time: 1412, scope: 'env:prod/deploy', holder: 'c1', invariant: 'no-stale-mutation', conflicts: [] },
    ]);
    expect(t.marks.map(({ holder, time, kind }) => ({ holder, time, kind }))).toEqual([
      { holder: 'c2', time: 1102, kind: 'accepted' },
      { holder: 'c1', time: 1412, kind: 'accepted' },
    ]);
  });

  it('closes a lease at its release and an unended fault at the end of the run', () => {
    const t = leaseTimeline({ ...CLEAN_RUN, history: [...CLEAN_HISTORY, { index: 10, time: 450, process: 'nemesis', type: 'fault', f: 'db-crash', value: {} }] });
    expect(t.bars.map((b) => [b.token, b.start, b.end, b.endedBy])).toEqual([
      [1, 1, 201, 'released'],
      [2, 206, 401, 'released'],
    ]);
    expect(t.faults).toEqual([{ kind: 'db-crash', start: 450, end: 501, detail: '{}', nodes: [] }]);
  });
});

describe('leaseTimeline on a broken store', () => {
  it('puts the cross on the second holder of a reused token, links it to the first, and shades the writes the failover lost', () => {
    const acquire = (index: number, time: number, holder: string): HistoryEvent[] => [
      { index, time, process: holder, type: 'invoke', f: 'Acquire', value: { kind: 'Acquire', scope: 'env:x', holder, ttlMs: 5000 } },
      { index: index + 1, time: time + 1, process: holder, type: 'ok', f: 'Acquire', value: { kind: 'Acquired', lease: { scope: 'env:x', holder, token: 3, acquiredAt: time + 1, expiresAt: time + 5001 } } },
    ];
    const failover = { index: 2, time: 4000, process: 'nemesis', type: 'fault', f: 'db-failover', value: { lagMs: 1500, imageTime: 2500 } } as HistoryEvent;
    const history = [...acquire(0, 3000, 'c1'), failover, ...acquire(3, 4200, 'c3')];
    const violation = { invariant: 'one-owner-per-epoch', message: 'token 3 has two holders', events: [1, 4], scope: 'env:x' };
    const t = leaseTimeline({ ...CLEAN_RUN, history, violations: [violation], simulatedMs: 6000 });
    expect(t.violations).toEqual([
      { time: 4201, scope: 'env:x', holder: 'c3', invariant: 'one-owner-per-epoch', message: 'token 3 has two holders', conflicts: [{ time: 3001, scope: 'env:x', holder: 'c1' }] },
    ]);
    // The first holder's acquire falls in the window the promoted replica did not have.
    expect(t.faults.filter((f) => f.kind === 'lost-writes').map(({ start, end }) => [start, end])).toEqual([[2500, 4000]]);
    // A restore that states only its age gets the same window; a skipped one gets none.
    const restore = (value: Record<string, unknown>) => leaseTimeline({ ...CLEAN_RUN, history: [{ index: 0, time: 900, process: 'nemesis', type: 'fault', f: 'db-restore', value } as HistoryEvent], simulatedMs: 1000 }).faults;
    expect(restore({ ageMs: 400 }).map((f) => [f.kind, f.start, f.end])).toEqual([['lost-writes', 500, 900], ['db-restore', 900, 900]]);
    expect(restore({ ageMs: 400, skipped: true }).map((f) => f.kind)).toEqual(['db-restore']);
  });

  it('draws both holders when a restore handed the same token out twice', () => {
    const acquire = (index: number, time: number, holder: string): HistoryEvent[] => [
      { index, time, process: holder, type: 'invoke', f: 'Acquire', value: { kind: 'Acquire', scope: 'env:x', holder, ttlMs: 1000 } },
      { index: index + 1, time: time + 1, process: holder, type: 'ok', f: 'Acquire', value: { kind: 'Acquired', lease: { scope: 'env:x', holder, token: 7, acquiredAt: time + 1, expiresAt: time + 1001 } } },
    ];
    const history = [...acquire(0, 0, 'c1'), { index: 2, time: 100, process: 'nemesis', type: 'fault', f: 'db-restore', value: {} } as HistoryEvent, ...acquire(3, 200, 'c2')];
    const bars = leaseTimeline({ ...CLEAN_RUN, history, simulatedMs: 2000 }).bars;
    expect(bars.map((b) => [b.holder, b.token, b.start, b.end])).toEqual([
      ['c1', 7, 1, 1001],
      ['c2', 7, 201, 1201],
    ]);
  });
});

describe('leaseTimeline fault bands as the simulator records them', () => {
  const fault = (index: number, time: number, f: string, value: Record<string, unknown>) => ({ index, time, process: 'nemesis' as const, type: 'fault' as const, f, value }) as HistoryEvent;

  it('heals only the partition of the named link, ends a lost-message window by its duration, and holds the liveness phase to the end', () => {
    const history = [
      ...CLEAN_HISTORY,
      fault(10, 20, 'partition', { from: 'c1', to: 'db', oneWay: false, durationMs: 100 }),
      fault(11, 30, 'partition', { from: 'c2', to: 'db', oneWay: false, durationMs: 300 }),
      fault(12, 120, 'heal', { from: 'c1', to: 'db' }),
      fault(13, 150, 'message-loss', { pct: 20, durationMs: 50 }),
      fault(14, 160, 'db-failover', {}),
      fault(15, 450, 'liveness-phase', { boundMs: 1000 }),
    ];
    expect(leaseTimeline({ ...CLEAN_RUN, history }).faults.map(({ kind, start, end }) => [kind, start, end])).toEqual([
      ['partition', 20, 120],
      ['partition', 30, 330],
      ['message-loss', 150, 200],
      ['db-failover', 160, 160],
      ['liveness-phase', 450, 501],
    ]);
  });

  it('ends a lease that a workflow-group cancellation released', () => {
    const history: HistoryEvent[] = [
      ...CLEAN_HISTORY.slice(0, 2),
      { index: 2, time: 90, process: 'c1', type: 'invoke', f: 'cancel', value: { group: 'deploy', runId: 'r1', supersedable: true, mode: 'CancelPrevious' } },
      { index: 3, time: 91, process: 'c1', type: 'ok', f: 'cancel', value: { released: [{ scope: 'db:orders', token: 1 }] } },
    ];
    expect(leaseTimeline({ ...CLEAN_RUN, history }).bars.map((b) => [b.token, b.end, b.endedBy])).toEqual([[1, 91, 'released']]);
  });
});

describe('waitTimes', () => {
  it('measures each waiter from Enqueue to the Acquire that got the lease', () => {
    expect(waitTimes(STALE_HISTORY)).toEqual([{ scope: 'env:prod/deploy', waiterId: 'w2', enqueuedAt: 50, acquiredAt: 1012, waitMs: 962 }]);
    expect(waitTimes(CLEAN_HISTORY)).toEqual([{ scope: 'db:orders', waiterId: 'w1', enqueuedAt: 10, acquiredAt: 206, waitMs: 196 }]);
  });

  it('prefers a recorded whole wait over the Enqueue/Acquire pair', () => {
    const history = [
      ...CLEAN_HISTORY,
      { index: 10, time: 5, process: 'w', type: 'invoke' as const, f: 'wait', value: { scope: 'db:orders', waiterId: 'w1' } },
      { index: 11, time: 210, process: 'w', type: 'ok' as const, f: 'wait', value: { scope: 'db:orders', waiterId: 'w1' } },
    ];
    expect(waitTimes(history).map((w) => w.waitMs)).toEqual([205]);
  });

  it('summarises waits as median, 95th percentile and maximum', () => {
    const waits = [10, 20, 30, 40, 1000].map((waitMs, i) => ({ scope: 's', waiterId: `w${i}`, enqueuedAt: 0, acquiredAt: waitMs, waitMs }));
    expect(waitStats(waits)).toEqual({ count: 5, p50Ms: 30, p95Ms: 1000, maxMs: 1000 });
    expect(waitStats([])).toEqual({ count: 0, p50Ms: 0, p95Ms: 0, maxMs: 0 });
  });
});
