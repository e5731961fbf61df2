// Jepsen pairing: a completion belongs to the latest earlier invoke of its process; a stray completion is malformed.
import { describe, expect, it } from 'vitest';
import { pairOperations } from '../../../model/checkers/operations.ts';
import { HistoryBuilder } from './history-builder.ts';

describe('pairOperations', () => {
  it('pairs each completion with the latest invoke of the same process, across interleaving', () => {
    const h = new HistoryBuilder();
    h.invoke('c1#1', 'effect', { intentId: 'i' });
    h.invoke('c2#1', 'inspect', { intentId: 'i' });
    h.event('c1#1', 'info', 'effect', null);
    h.invoke('c1#2', 'wait', { scope: 's', waiterId: 'w' });
    h.event('c2#1', 'ok', 'inspect', { applied: false });
    const ops = pairOperations(h.build());
    expect(ops.map((op) => [op.f, op.invoke.index, op.completion?.index ?? null])).toEqual([
      ['effect', 0, 2],
      ['inspect', 1, 4],
      ['wait', 3, null],
    ]);
  });

  it('rejects a completion with no invoke in flight', () => {
    const h = new HistoryBuilder();
    h.event('c1#1', 'ok', 'Acquire', { kind: 'Busy' });
    expect(() => pairOperations(h.build())).toThrow(/no invoke in flight/);
  });

  it('rejects a completion whose f differs from its invoke', () => {
    const h = new HistoryBuilder();
    h.invoke('c1#1', 'Acquire', {});
    h.event('c1#1', 'ok', 'Release', {});
    expect(() => pairOperations(h.build())).toThrow(/completes Acquire/);
  });
});
