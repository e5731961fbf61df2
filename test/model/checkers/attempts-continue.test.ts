// seed 001 §76–§77, §276: a scheduled job's attempt runs on under its database lease when its
// leader loses the role; it gives its job back only once the store refused its write, was asked to
// confirm its lease, or left a call unanswered.
import { describe, expect, it } from 'vitest';
import { attemptsContinue } from '../../../model/checkers/attempts-continue.ts';
import { HistoryBuilder } from './history-builder.ts';

const ATTEMPT = 'c1#1:a1';
const mutate = { kind: 'Mutate' as const, scope: 'env', aggregate: 'a', holder: 'c1#1', token: 1, expectedVersion: 0 };
const giveBack = { kind: 'ReturnJob' as const, jobId: 'op1', token: 1 };
const renew = { kind: 'Renew' as const, scope: 'env', holder: 'c1#1', expectedToken: 1, ttlMs: 1_000 };

function led(role = 'scheduler'): HistoryBuilder {
  const h = new HistoryBuilder();
  h.at(0).op('c1#1:lead1', { kind: 'AdvanceRoleEpoch', role, epoch: 1 }, { kind: 'RoleEpochAdvanced', role, epoch: 1 });
  return h;
}

describe('attempts-continue', () => {
  it('names an attempt that gives its job back with its write accepted and no confirmation asked', () => {
    const h = led();
    h.at(10).op(ATTEMPT, mutate, { kind: 'Accepted', version: 1, token: 1 });
    h.at(300).op(ATTEMPT, giveBack, { kind: 'JobReturned', job: {} });
    const verdict = attemptsContinue(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/c1#1:a1 gave job op1 back \(#\d+\) though the store had refused neither its write nor its lease/);
    // A confirmation the store answered Renewed is no refusal.
    const renewed = led();
    renewed.at(10).op(ATTEMPT, mutate, { kind: 'Accepted', version: 1, token: 1 });
    renewed.at(300).op(ATTEMPT, renew, { kind: 'Renewed', lease: {} });
    renewed.at(310).op(ATTEMPT, giveBack, { kind: 'JobReturned', job: {} });
    expect(attemptsContinue(renewed.build()).valid).toBe(false);
  });

  it('passes an attempt whose write or lease was refused, whose three confirmations all came back, or whose call went unanswered', () => {
    const refused = led();
    refused.at(10).op(ATTEMPT, mutate, { kind: 'StaleFence', currentToken: 2 });
    refused.at(20).op(ATTEMPT, giveBack, { kind: 'JobReturned', job: {} });
    expect(attemptsContinue(refused.build()).valid).toBe(true);
    const confirmed = led();
    confirmed.at(10).op(ATTEMPT, mutate, { kind: 'Accepted', version: 1, token: 1 });
    confirmed.at(300).op(ATTEMPT, renew, { kind: 'Stale', currentToken: null });
    confirmed.at(310).op(ATTEMPT, giveBack, { kind: 'JobReturned', job: {} });
    expect(attemptsContinue(confirmed.build()).valid).toBe(true);
    const late = led();
    late.at(10).op(ATTEMPT, mutate, { kind: 'Accepted', version: 1, token: 1 });
    for (const at of [300, 900, 1_500]) late.at(at).op(ATTEMPT, renew, { kind: 'Renewed', lease: {} });
    late.at(2_000).op(ATTEMPT, giveBack, { kind: 'JobReturned', job: {} });
    expect(attemptsContinue(late.build()).valid).toBe(true);
    const unanswered = led();
    unanswered.at(10).call(ATTEMPT, 'Mutate', mutate, 'fail', { error: 'unavailable' });
    unanswered.at(20).op(ATTEMPT, giveBack, { kind: 'JobReturned', job: {} });
    expect(attemptsContinue(unanswered.build()).valid).toBe(true);
  });

  it('on a store whose renewals only confirm, passes an attempt confirmed without an extension; elsewhere, and once extended, names it', () => {
    const lease = (expiresAt: number) => ({ scope: 'env', holder: 'c1#1', token: 1, acquiredAt: 0, expiresAt });
    const history = (confirming: boolean, expiresAt: number) => {
      const h = led();
      if (confirming) h.at(0).truth('renewal', { kind: 'confirms' });
      h.at(10).op(ATTEMPT, mutate, { kind: 'Accepted', version: 1, token: 1 });
      h.at(300).op(ATTEMPT, renew, { kind: 'Renewed', lease: lease(expiresAt) });
      h.at(310).op(ATTEMPT, giveBack, { kind: 'JobReturned', job: {} });
      return h.build();
    };
    expect(attemptsContinue(history(true, 1_000)).valid).toBe(true);
    expect(attemptsContinue(history(true, 1_300)).valid).toBe(false);
    // A store that extends (no record) answering at the grant's own millisecond: no excuse.
    expect(attemptsContinue(history(false, 1_000)).valid).toBe(false);
  });

  it('does not judge a coordinator, whose promotion needs its role guard (001 §78–§79)', () => {
    const h = led('release-coordinator');
    h.at(300).op(ATTEMPT, giveBack, { kind: 'JobReturned', job: {} });
    expect(attemptsContinue(h.build()).valid).toBe(true);
  });
});
