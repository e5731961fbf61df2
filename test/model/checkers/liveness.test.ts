// seed 000 §90–§92, §294: once faults heal every waiter gets the lease within the bound, and no later waiter of equal or lower priority overtakes.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../../model/commands.ts';
import { liveness } from '../../../model/checkers/liveness.ts';
import { HistoryBuilder, lease } from './history-builder.ts';

function enqueue(waiterId: string, priority: number): Command {
  return { kind: 'Enqueue', scope: 'env', waiterId, holder: waiterId, priority };
}

function acquireAs(h: HistoryBuilder, waiterId: string, token: number): [number, number] {
  return h.op(`${waiterId}#1`, { kind: 'Acquire', scope: 'env', holder: waiterId, ttlMs: 100, waiterId }, { kind: 'Acquired', lease: lease('env', waiterId, token) });
}

describe('liveness', () => {
  it('passes waits that finish within the bound in FIFO order, and a higher priority overtaking', () => {
    const h = new HistoryBuilder();
    h.invoke('w0#1', 'wait', { scope: 'env', waiterId: 'w0' });
    h.fault('liveness-phase', { boundMs: 1_000 });
    h.op('w1#1', enqueue('w1', 0), { kind: 'Enqueued', position: 1 });
    h.op('w2#1', enqueue('w2', 5), { kind: 'Enqueued', position: 1 });
    acquireAs(h, 'w2', 1);
    acquireAs(h, 'w1', 2);
    h.at(900);
    h.event('w0#1', 'ok', 'wait', { token: 3 });
    h.call('w3#1', 'wait', { scope: 'env', waiterId: 'w3' }, 'ok', {});
    expect(liveness(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails a wait that completes after the bound, and one still waiting past it', () => {
    const h = new HistoryBuilder();
    const phase = h.fault('liveness-phase', { boundMs: 100 });
    const late = h.invoke('w1#1', 'wait', { scope: 'env', waiterId: 'w1' });
    const starved = h.invoke('w2#1', 'wait', { scope: 'env', waiterId: 'w2' });
    h.at(500);
    const lateOk = h.event('w1#1', 'ok', 'wait', {});
    const verdict = liveness(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations.map((v) => v.events)).toEqual([
      [phase, late, lateOk],
      [phase, starved],
    ]);
  });

  it('fails a later waiter of equal priority acquiring first', () => {
    const h = new HistoryBuilder();
    h.fault('liveness-phase', { boundMs: 10_000 });
    const [first, firstOk] = h.op('w1#1', enqueue('w1', 0), { kind: 'Enqueued', position: 1 });
    const [second, secondOk] = h.op('w2#1', enqueue('w2', 0), { kind: 'Enqueued', position: 2 });
    const [take, taken] = acquireAs(h, 'w2', 1);
    const verdict = liveness(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]).toMatchObject({ invariant: 'liveness', scope: 'env', events: [first, firstOk, second, secondOk, take, taken] });
  });

  it('fails a plain Acquire that bypasses a queued waiter', () => {
    const h = new HistoryBuilder();
    h.fault('liveness-phase', { boundMs: 10_000 });
    const [queued, queuedOk] = h.op('w1#1', enqueue('w1', 0), { kind: 'Enqueued', position: 1 });
    const [take, taken] = h.op('c9#1', { kind: 'Acquire', scope: 'env', holder: 'c9', ttlMs: 100 }, { kind: 'Acquired', lease: lease('env', 'c9', 1) });
    const verdict = liveness(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]?.events).toEqual([queued, queuedOk, take, taken]);
  });

  it('is undecided when the history ends before a pending wait reached its deadline', () => {
    const h = new HistoryBuilder();
    h.fault('liveness-phase', { boundMs: 1_000 });
    h.invoke('w1#1', 'wait', { scope: 'env', waiterId: 'w1' });
    expect(liveness(h.build()).valid).toBe('unknown');
  });
});
