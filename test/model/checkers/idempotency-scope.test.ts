// seed 000 §43–§45: an idempotency record is identified by tenant, operation, subject and key, so
// an answer about an existing record needs another request on that same record before it.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../../model/commands.ts';
import { idempotencyScope } from '../../../model/checkers/idempotency-scope.ts';
import { HistoryBuilder } from './history-builder.ts';

const begin = (subject: string): Command => ({ kind: 'IdempotencyBegin', tenant: 't1', operation: 'api-create', subject, key: 'k1', digest: 'd1', retentionMs: 60_000, retryAfterTerminal: false });

describe('idempotency-scope', () => {
  it('passes a Replay on a record an earlier request created, and a concurrent InProgress', () => {
    const h = new HistoryBuilder();
    h.op('c1', begin('s1'), { kind: 'New' });
    h.op('c2', begin('s1'), { kind: 'Replay', response: 'r' });
    // Two requests at once: the one invoked first may be the one that finds the other's record.
    h.invoke('c3', 'IdempotencyBegin', begin('s2'));
    h.invoke('c4', 'IdempotencyBegin', begin('s2'));
    h.event('c3', 'ok', 'IdempotencyBegin', { kind: 'InProgress' });
    h.event('c4', 'ok', 'IdempotencyBegin', { kind: 'New' });
    expect(idempotencyScope(h.build()).valid).toBe(true);
  });

  it('fails a Replay or a Conflict on a record no other request reached, even when the key exists for another subject', () => {
    const h = new HistoryBuilder();
    h.op('c1', begin('s1'), { kind: 'New' });
    const [, replay] = h.op('c2', begin('s2'), { kind: 'Replay', response: 'r' });
    h.op('c3', begin('s3'), { kind: 'Conflict', existingDigest: 'd0' });
    const verdict = idempotencyScope(h.build());
    expect(verdict.violations).toHaveLength(2);
    expect(verdict.violations[0]!.message).toMatch(/key t1\/api-create\/s2\/k1: IdempotencyBegin by c2 \(#3\) answered Replay, but no other request on this record/);
    expect(verdict.violations[0]!.events).toContain(replay);
    expect(verdict.violations[1]!.message).toMatch(/s3\/k1: .* answered Conflict/);
  });
});
