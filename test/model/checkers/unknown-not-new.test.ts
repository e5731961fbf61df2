// seed 000 §53, §285: an idempotency key whose outcome is Unknown is never answered New again while its record lives unresolved.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../../model/commands.ts';
import { unknownNotNew } from '../../../model/checkers/unknown-not-new.ts';
import { HistoryBuilder } from './history-builder.ts';

const ref = { tenant: 't', operation: 'publish', subject: 'rel-1', key: 'k1', digest: 'd1' };
const begin: Command = { kind: 'IdempotencyBegin', ...ref, retentionMs: 1_000, retryAfterTerminal: false };
const recordUnknown: Command = { kind: 'IdempotencyComplete', ...ref, outcome: { kind: 'Unknown' } };
const recordSucceeded: Command = { kind: 'IdempotencyComplete', ...ref, outcome: { kind: 'Succeeded', response: 'r' } };

describe('unknown-not-new', () => {
  it('passes New after the Unknown was resolved, and New after the record expired', () => {
    const h = new HistoryBuilder();
    h.op('c1#1', begin, { kind: 'New' });
    h.op('c1#1', recordUnknown, { kind: 'Recorded' });
    h.op('c2#1', begin, { kind: 'Unknown' });
    h.op('c2#1', recordSucceeded, { kind: 'Recorded' });
    h.op('c2#1', begin, { kind: 'Replay', outcome: { kind: 'Succeeded', response: 'r' } });
    const other = { ...ref, key: 'k2' };
    h.op('c3#1', { ...begin, ...other }, { kind: 'New' });
    h.op('c3#1', { ...recordUnknown, ...other }, { kind: 'Recorded' });
    h.at(5_000);
    h.op('c3#1', { ...begin, ...other }, { kind: 'New' });
    expect(unknownNotNew(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails a New answered to the same digest while the Unknown record lives', () => {
    const h = new HistoryBuilder();
    h.op('c1#1', begin, { kind: 'New' });
    const [markInvoke, markOk] = h.op('c1#1', recordUnknown, { kind: 'Recorded' });
    const [again, answeredNew] = h.op('c2#1', begin, { kind: 'New' });
    const verdict = unknownNotNew(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]).toMatchObject({ invariant: 'unknown-not-new', events: [markInvoke, markOk, again, answeredNew] });
  });

  it('fails a New after a Begin was answered Unknown', () => {
    const h = new HistoryBuilder();
    h.op('c1#1', begin, { kind: 'New' });
    h.invoke('c1#1', 'IdempotencyComplete', recordUnknown);
    h.event('c1#1', 'info', 'IdempotencyComplete', null);
    const [, unknown] = h.op('c2#1', begin, { kind: 'Unknown' });
    const [, answeredNew] = h.op('c3#1', begin, { kind: 'New' });
    const verdict = unknownNotNew(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]?.events).toContain(unknown);
    expect(verdict.violations[0]?.events).toContain(answeredNew);
  });
});
