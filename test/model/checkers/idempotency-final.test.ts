// seed 000 §45, §48–§51: once the store showed a record final, later requests on it with the same
// digest are answered from that outcome while it lives; a completion that overwrites it loses the
// acknowledged outcome.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../../model/commands.ts';
import { idempotencyFinal } from '../../../model/checkers/idempotency-final.ts';
import { HistoryBuilder, failing } from './history-builder.ts';

const KEY = { tenant: 't1', operation: 'api-create', subject: 's1', key: 'k1', digest: 'd1' } as const;
const SUCCEEDED = { kind: 'Succeeded', response: 'r1' } as const;
const FAILED = { kind: 'FailedTerminal', error: 'refused' } as const;

const begin = (retryAfterTerminal = false, retentionMs = 1_000): Command => ({ kind: 'IdempotencyBegin', ...KEY, retentionMs, retryAfterTerminal });
const complete = (outcome: Extract<Command, { kind: 'IdempotencyComplete' }>['outcome']): Command => ({ kind: 'IdempotencyComplete', ...KEY, outcome });

describe('idempotency-final', () => {
  it('passes later requests answered from the recorded outcome, and a new record after the retention', () => {
    const h = new HistoryBuilder();
    h.op('c1#1', begin(), { kind: 'New' });
    h.op('c1#1', complete(SUCCEEDED), { kind: 'Recorded' });
    h.op('c2#1', begin(), { kind: 'Replay', outcome: SUCCEEDED });
    h.op('c3#1', complete({ kind: 'Unknown' }), { kind: 'AlreadyFinal', outcome: SUCCEEDED });
    h.op('c4#1', { ...begin(), digest: 'd2' } as Command, { kind: 'Conflict', existingDigest: 'd1' });
    h.at(2_000);
    h.op('c5#1', begin(), { kind: 'New' });
    h.op('c5#1', complete(FAILED), { kind: 'Recorded' });
    expect(idempotencyFinal(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('passes a restart of a terminally failed record by a Begin that allows it, and what follows it', () => {
    const h = new HistoryBuilder();
    h.op('c1#1', begin(), { kind: 'New' });
    h.op('c1#1', complete(FAILED), { kind: 'Recorded' });
    h.op('c2#1', begin(true), { kind: 'New' });
    h.op('c3#1', begin(), { kind: 'InProgress' });
    h.op('c2#1', complete(SUCCEEDED), { kind: 'Recorded' });
    expect(idempotencyFinal(h.build()).valid).toBe(true);
  });

  it('fails a completion answered Recorded over an acknowledged final outcome, and the changed outcome replayed after it', () => {
    const h = new HistoryBuilder();
    h.op('c1#1', begin(), { kind: 'New' });
    h.op('c1#1', complete(SUCCEEDED), { kind: 'Recorded' });
    h.op('c2#2', complete({ kind: 'Unknown' }), { kind: 'Recorded' });
    h.op('c3#1', begin(), { kind: 'Unknown' });
    h.op('c4#1', begin(), { kind: 'Replay', outcome: FAILED });
    const violations = failing(idempotencyFinal(h.build()), 3);
    const overwrite = violations.find((v) => v.message.includes('IdempotencyComplete'))!;
    expect(overwrite.message).toBe('key t1/api-create/s1/k1 digest d1: the store showed it final with {"kind":"Succeeded","response":"r1"} (#3); a IdempotencyComplete invoked after that (#4) was answered Recorded');
    expect(overwrite.events).toEqual([2, 3, 4, 5]);
    expect(violations.map((v) => v.message).join('\n')).toContain('answered Replay {"kind":"FailedTerminal","error":"refused"}');
  });

  it('fails a Begin answered New on a live Succeeded record, even one that allows a retry after a terminal failure', () => {
    const h = new HistoryBuilder();
    h.op('c1#1', begin(), { kind: 'New' });
    h.op('c1#1', complete(SUCCEEDED), { kind: 'Recorded' });
    h.op('c2#1', begin(true), { kind: 'New' });
    failing(idempotencyFinal(h.build()), 1);
  });

  it('judges nothing across a restore, nor a request in flight when the outcome was acknowledged', () => {
    const h = new HistoryBuilder();
    h.op('c1#1', begin(), { kind: 'New' });
    h.invoke('c2#1', 'IdempotencyComplete', complete({ kind: 'Unknown' }));
    h.op('c1#1', complete(SUCCEEDED), { kind: 'Recorded' });
    h.event('c2#1', 'ok', 'IdempotencyComplete', { kind: 'Recorded' });
    h.fault('db-restore', { imageTime: 0, blockedScopes: [] });
    h.op('c3#1', complete(FAILED), { kind: 'Recorded' });
    expect(idempotencyFinal(h.build()).valid).toBe(true);
  });
});
