// seed 000 §66–§70: a protected write is an expected-version write; two writes accepted from the
// same version lose one of them.
import { describe, expect, it } from 'vitest';
import { noLostUpdate } from '../../../model/checkers/no-lost-update.ts';
import { HistoryBuilder } from './history-builder.ts';

const write = (h: HistoryBuilder, holder: string, token: number, expectedVersion: number, answer: unknown) =>
  h.op(holder, { kind: 'Mutate', scope: 'env', aggregate: 'a', holder, token, expectedVersion }, answer);

describe('no-lost-update', () => {
  it('passes writes that each move the version by one, and a refused write from an old version', () => {
    const h = new HistoryBuilder();
    write(h, 'A', 1, 0, { kind: 'Accepted', version: 1, token: 1 });
    write(h, 'B', 2, 1, { kind: 'Accepted', version: 2, token: 2 });
    write(h, 'A', 1, 1, { kind: 'StaleVersion', currentVersion: 2 });
    expect(noLostUpdate(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails an Accepted answer whose version is not the expected one plus one, or whose token is not the write\'s', () => {
    const h = new HistoryBuilder();
    write(h, 'A', 1, 0, { kind: 'Accepted', version: 1, token: 1 });
    write(h, 'B', 2, 0, { kind: 'Accepted', version: 2, token: 2 });
    write(h, 'B', 2, 2, { kind: 'Accepted', version: 3, token: 7 });
    const verdict = noLostUpdate(h.build());
    expect(verdict.valid).toBe(false);
    const messages = verdict.violations.map((v) => v.message).join('\n');
    expect(messages).toContain('expecting version 0 under token 2 was answered Accepted with version 2 under token 2');
    expect(messages).toContain('under token 7');
    expect(messages).toContain('writes by A (#1) and B (#3) were both accepted from version 0');
  });

  it('passes the same version accepted again after a restore replaced the durable state, not after a skipped one', () => {
    const h = new HistoryBuilder();
    write(h, 'A', 1, 0, { kind: 'Accepted', version: 1, token: 1 });
    h.fault('db-restore', { skipped: true, blockedScopes: [] });
    h.fault('db-restore', { imageTime: 0, blockedScopes: [] });
    write(h, 'B', 1_000_000_001, 0, { kind: 'Accepted', version: 1, token: 1_000_000_001 });
    expect(noLostUpdate(h.build()).valid).toBe(true);
    const skippedOnly = new HistoryBuilder();
    write(skippedOnly, 'A', 1, 0, { kind: 'Accepted', version: 1, token: 1 });
    skippedOnly.fault('db-restore', { skipped: true, blockedScopes: [] });
    write(skippedOnly, 'B', 2, 0, { kind: 'Accepted', version: 1, token: 2 });
    expect(noLostUpdate(skippedOnly.build()).valid).toBe(false);
  });
});
