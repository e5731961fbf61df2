// sim/batch-order.ts: the calls of an interleaved batch ran at once, so the shadow model accepts
// the store's answers when some order of the calls gives them all, whichever order they finished
// in, and reports a divergence only when none does.

import { describe, expect, test } from 'vitest';
import type { Command } from '../../model/commands.ts';
import { initialState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { explainBatch } from '../../sim/batch-order.ts';

const NOW = 1_000;
const acquire = (scope: string, holder: string): Command => ({ kind: 'Acquire', scope, holder, ttlMs: 500 });
const lease = (scope: string, holder: string, token: number) => ({ scope, holder, token, acquiredAt: NOW, expiresAt: NOW + 500 });

describe('explainBatch', () => {
  test('a call that finished last but ran first is placed first, even in a batch of nine', () => {
    const held = step(initialState(), acquire('s0', 'old'), NOW - 600).state; // expired by NOW
    const others = Array.from({ length: 8 }, (_, i) => ({ command: acquire(`s${i + 1}`, `h${i}`), actual: { kind: 'Acquired', lease: lease(`s${i + 1}`, `h${i}`, 1) }, process: `c${i}` }));
    // c9's acquire of s0 answered Busy: it ran after c8's acquire of s0, which finished later.
    const busy = { command: acquire('s0', 'late'), actual: { kind: 'Busy', holder: 'first', token: 2, expiresAt: NOW + 500 }, process: 'c9' };
    const first = { command: acquire('s0', 'first'), actual: { kind: 'Acquired', lease: lease('s0', 'first', 2) }, process: 'c8' };
    const order = explainBatch([held], [...others, busy, first], NOW);
    expect(order.kind).toBe('explained');
  });

  test('two owners granted the same token at once are explained by no order', () => {
    const entries = ['a', 'b'].map((holder) => ({ command: acquire('s', holder), actual: { kind: 'Acquired', lease: lease('s', holder, 1) }, process: holder }));
    expect(explainBatch([initialState()], entries, NOW)).toMatchObject({ kind: 'unexplained' });
  });

  test('a search past its budget is undecided, never a divergence', () => {
    const entries = Array.from({ length: 6 }, (_, i) => ({ command: acquire('s', `h${i}`), actual: { kind: 'Acquired', lease: lease('s', `h${i}`, 1) }, process: `c${i}` }));
    expect(explainBatch([initialState()], entries, NOW, 10)).toMatchObject({ kind: 'undecided' });
  });
  test('orders and times that give the same answers but leave different states are all kept, equal ones once', () => {
    // Two enqueues on one scope, each at store time 10 or 20: positions 1 and 2 fix who came
    // first, but not when. Three pairs of enqueue times remain, each a state of its own (b at 10
    // after a at 20 is out: a, aged from the future, would rank behind b).
    const enqueue = (waiterId: string): Command => ({ kind: 'Enqueue', scope: 'env:s', waiterId, holder: waiterId, priority: 0 });
    const entries = [
      { command: enqueue('a'), actual: { kind: 'Enqueued', position: 1 }, process: 'c1', storeTimes: [10, 20] },
      { command: enqueue('b'), actual: { kind: 'Enqueued', position: 2 }, process: 'c2', storeTimes: [10, 20] },
    ];
    const order = explainBatch([initialState()], entries, 20);
    expect(order.kind).toBe('explained');
    expect(order.kind === 'explained' && order.states.length).toBe(3);
    // Commuting calls (two scopes) reach one state whichever goes first.
    const commuting = [
      { command: acquire('s1', 'a'), actual: { kind: 'Acquired', lease: lease('s1', 'a', 1) }, process: 'c1' },
      { command: acquire('s2', 'b'), actual: { kind: 'Acquired', lease: lease('s2', 'b', 1) }, process: 'c2' },
    ];
    const merged = explainBatch([initialState()], commuting, NOW);
    expect(merged.kind === 'explained' && merged.states.length).toBe(1);
  });
});
