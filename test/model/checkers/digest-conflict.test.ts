// seed 000 §46–§47, §284: the same idempotency key with a different request digest is always a Conflict while the record lives.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../../model/commands.ts';
import { digestConflict } from '../../../model/checkers/digest-conflict.ts';
import { HistoryBuilder } from './history-builder.ts';

const ref = { tenant: 't', operation: 'deploy', subject: 'env-prod', key: 'k1' };
const begin = (digest: string): Command => ({ kind: 'IdempotencyBegin', ...ref, digest, retentionMs: 1_000, retryAfterTerminal: false });

describe('digest-conflict', () => {
  it('passes Conflict for another digest and New for it once the record expired', () => {
    const h = new HistoryBuilder();
    h.op('c1#1', begin('d1'), { kind: 'New' });
    h.op('c2#1', begin('d2'), { kind: 'Conflict', existingDigest: 'd1' });
    h.op('c1#1', begin('d1'), { kind: 'InProgress' });
    h.at(2_000);
    h.op('c2#1', begin('d2'), { kind: 'New' });
    expect(digestConflict(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails a Replay answered to a different digest', () => {
    const h = new HistoryBuilder();
    const [created, createdOk] = h.op('c1#1', begin('d1'), { kind: 'New' });
    h.op('c1#1', { kind: 'IdempotencyComplete', ...ref, digest: 'd1', outcome: { kind: 'Succeeded', response: 'r' } }, { kind: 'Recorded' });
    const [reuse, reuseOk] = h.op('c2#1', begin('d2'), { kind: 'Replay', outcome: { kind: 'Succeeded', response: 'r' } });
    const verdict = digestConflict(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations).toHaveLength(1);
    expect(verdict.violations[0]).toMatchObject({ invariant: 'digest-conflict', events: [created, createdOk, reuse, reuseOk] });
  });

  it('fails a Complete recorded under a different digest', () => {
    const h = new HistoryBuilder();
    h.op('c1#1', begin('d1'), { kind: 'New' });
    const [, recorded] = h.op('c2#1', { kind: 'IdempotencyComplete', ...ref, digest: 'd2', outcome: { kind: 'Unknown' } }, { kind: 'Recorded' });
    const verdict = digestConflict(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]?.events).toContain(recorded);
  });
});
