// seed 000 §44–§45, §47: an idempotency record is identified by tenant, operation, subject and key,
// so an answer about an existing record needs requests on that same record that can have made it.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../../model/commands.ts';
import { idempotencyScope } from '../../../model/checkers/idempotency-scope.ts';
import { HistoryBuilder } from './history-builder.ts';

const ref = (subject: string, digest = 'd1') => ({ tenant: 't1', operation: 'api-create', subject, key: 'k1', digest });
const begin = (subject: string, digest = 'd1'): Command => ({ kind: 'IdempotencyBegin', ...ref(subject, digest), retentionMs: 60_000, retryAfterTerminal: false });
const complete = (subject: string, outcome: { kind: 'Succeeded'; response: string } | { kind: 'Unknown' }): Command => ({ kind: 'IdempotencyComplete', ...ref(subject), outcome });

describe('idempotency-scope', () => {
  it('passes answers that requests on the same record explain, a concurrent InProgress included', () => {
    const h = new HistoryBuilder();
    h.op('c1', begin('s1'), { kind: 'New' });
    h.op('c1', complete('s1', { kind: 'Succeeded', response: 'r1' }), { kind: 'Recorded' });
    h.op('c2', begin('s1'), { kind: 'Replay', outcome: { kind: 'Succeeded', response: 'r1' } });
    h.op('c2', begin('s1', 'd2'), { kind: 'Conflict', existingDigest: 'd1' });
    // Two requests at once: the one invoked first may be the one that finds the other's record.
    h.invoke('c3', 'IdempotencyBegin', begin('s2'));
    h.invoke('c4', 'IdempotencyBegin', begin('s2'));
    h.event('c3', 'ok', 'IdempotencyBegin', { kind: 'InProgress' });
    h.event('c4', 'ok', 'IdempotencyBegin', { kind: 'New' });
    h.op('c4', complete('s2', { kind: 'Unknown' }), { kind: 'Recorded' });
    h.op('c3', begin('s2'), { kind: 'Unknown' });
    expect(idempotencyScope(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails answers taken from another subject’s record with the same key', () => {
    const h = new HistoryBuilder();
    h.op('c1', begin('s1'), { kind: 'New' });
    h.op('c1', complete('s1', { kind: 'Succeeded', response: 'r1' }), { kind: 'Recorded' });
    const [, replay] = h.op('c2', begin('s2'), { kind: 'Replay', outcome: { kind: 'Succeeded', response: 'r1' } });
    h.op('c3', begin('s3', 'd2'), { kind: 'Conflict', existingDigest: 'd1' });
    // A record that exists, answered with an outcome nobody recorded on it.
    h.op('c4', begin('s1'), { kind: 'Replay', outcome: { kind: 'Succeeded', response: 'r9' } });
    const verdict = idempotencyScope(h.build());
    expect(verdict.violations.map((v) => v.message)).toEqual([
      expect.stringMatching(/^key t1\/api-create\/s2\/k1: IdempotencyBegin by c2 \(#5\) answered Replay, but no Complete on this record recorded/),
      expect.stringMatching(/s3\/k1: .* answered Conflict, but no request on this record with digest d1 reached the store/),
      expect.stringMatching(/s1\/k1: .* answered Replay, but no Complete on this record recorded .*r9/),
    ]);
    expect(verdict.violations[0]!.events).toContain(replay);
  });
});
