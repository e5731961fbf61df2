// seed 000 §163–§169, §268, §296: site-authority-first fails a lease or write accepted in a federated domain without the authority guard, under an epoch older than one in force, or under an epoch another site holds; fenced or overlapping calls pass.
import { describe, expect, it } from 'vitest';
import type { Command, RoleGuard } from '../../../model/commands.ts';
import { siteAuthorityFirst } from '../../../model/checkers/site-authority-first.ts';
import { failing, HistoryBuilder, lease } from './history-builder.ts';

const T1 = 'authority:t1';
const SCOPE = 'env:a';
const guard = (epoch: number): RoleGuard => ({ role: T1, epoch });

const acquireCommand = (holder: string, g?: RoleGuard): Command => ({ kind: 'Acquire', scope: SCOPE, holder, ttlMs: 1_000, ...(g === undefined ? {} : { guard: g }) });
const mutateCommand = (holder: string, token: number, g?: RoleGuard): Command => ({ kind: 'Mutate', scope: SCOPE, aggregate: 'agg', holder, token, expectedVersion: 0, ...(g === undefined ? {} : { guard: g }) });

/** Three sites of one controller each; domain t1 (scope env:a) starts at site 1 under epoch 1. */
function federated(): HistoryBuilder {
  const h = new HistoryBuilder();
  h.fault('federation', { sites: [['c1'], ['c2'], ['c3']], domains: [{ domain: 't1', role: T1, site: 1, epoch: 1, scopes: [SCOPE] }] });
  h.op('federation#1', { kind: 'AdvanceRoleEpoch', role: T1, epoch: 1 }, { kind: 'RoleEpochAdvanced', role: T1, epoch: 1 });
  return h;
}

/** t1 fails over to site 2 under epoch 2, which the procedure writes to the store. */
function failedOver(h: HistoryBuilder): HistoryBuilder {
  h.fault('site-failover', { domain: 't1', role: T1, from: 1, to: 2, epoch: 2 });
  h.op('federation#2', { kind: 'AdvanceRoleEpoch', role: T1, epoch: 2 }, { kind: 'RoleEpochAdvanced', role: T1, epoch: 2 });
  return h;
}

const granted = (holder: string, token: number) => ({ kind: 'Acquired', lease: lease(SCOPE, holder, token) });
const accepted = (token: number) => ({ kind: 'Accepted', version: 1, token });

describe('site-authority-first', () => {
  it('passes the authority site under its epoch, the new site after a failover, and the old site fenced', () => {
    const h = federated();
    h.op('c1#1', acquireCommand('c1#1', guard(1)), granted('c1#1', 1));
    h.op('c1#1', mutateCommand('c1#1', 1, guard(1)), accepted(1));
    failedOver(h);
    h.op('c1#1', mutateCommand('c1#1', 1, guard(1)), { kind: 'Fenced', role: T1, currentEpoch: 2 });
    h.op('c2#1', acquireCommand('c2#1', guard(2)), granted('c2#1', 2));
    expect(siteAuthorityFirst(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails a lease the old site took under its epoch after the failover wrote the new one (000 §168, §296)', () => {
    const h = failedOver(federated());
    h.op('c1#1', acquireCommand('c1#1', guard(1)), granted('c1#1', 1));
    const [violation] = failing(siteAuthorityFirst(h.build()), 1);
    expect(violation!.message).toMatch(/lease on env:a by c1#1 accepted under authority:t1 epoch 1 .* after epoch 2 was in force \(#5 by federation#2\)/);
  });

  it('judges stale authority epochs from the store alone when the history has no federation record', () => {
    const h = new HistoryBuilder();
    h.op('c2#1', acquireCommand('c2#1', guard(2)), granted('c2#1', 1));
    h.op('c1#1', mutateCommand('c1#1', 1, guard(1)), accepted(1));
    expect(failing(siteAuthorityFirst(h.build()), 1)[0]!.message).toMatch(/write on env:a by c1#1 accepted under authority:t1 epoch 1/);
  });

  it('fails a write accepted in a federated domain without the authority guard: a local lock stood in for it (000 §167, §169)', () => {
    const h = federated();
    h.op('c1#1', acquireCommand('c1#1', guard(1)), granted('c1#1', 1));
    h.op('c1#1', mutateCommand('c1#1', 1), accepted(1));
    expect(failing(siteAuthorityFirst(h.build()), 1)[0]!.message).toMatch(/write on env:a of domain t1 by c1#1 accepted without the guard of authority:t1/);
  });

  it('fails a site acting under an epoch the federation gave another site, and two sites owning under one epoch (000 §268)', () => {
    const h = failedOver(federated());
    h.op('c2#1', acquireCommand('c2#1', guard(2)), granted('c2#1', 1));
    h.op('c3#1', mutateCommand('c3#1', 1, guard(2)), accepted(1));
    const messages = failing(siteAuthorityFirst(h.build()), 2).map((v) => v.message);
    expect(messages[0]).toMatch(/write on env:a by c3#1 of site 3 accepted under authority:t1 epoch 2, which the federation gave site 2/);
    expect(messages[1]).toMatch(/two sites hold accepted ownership under authority:t1 epoch 2: lease on env:a by c2#1 .* and write on env:a by c3#1/);
  });

  it('passes a call sent before the new epoch was established, whose answer came after (real-time order)', () => {
    const h = federated();
    h.fault('site-failover', { domain: 't1', role: T1, from: 1, to: 2, epoch: 2 });
    h.invoke('c1#1', 'Acquire', acquireCommand('c1#1', guard(1)));
    h.op('federation#2', { kind: 'AdvanceRoleEpoch', role: T1, epoch: 2 }, { kind: 'RoleEpochAdvanced', role: T1, epoch: 2 });
    h.event('c1#1', 'ok', 'Acquire', granted('c1#1', 1));
    expect(siteAuthorityFirst(h.build()).valid).toBe(true);
  });

  it('ignores scopes outside every domain and guards of coordinated roles', () => {
    const h = federated();
    h.op('c1#1', { kind: 'Acquire', scope: 'env:elsewhere', holder: 'c1#1', ttlMs: 1_000 }, { kind: 'Acquired', lease: lease('env:elsewhere', 'c1#1', 1) });
    h.op('c2#1', { kind: 'Acquire', scope: 'env:other', holder: 'c2#1', ttlMs: 1_000, guard: { role: 'scheduler', epoch: 1 } }, { kind: 'Acquired', lease: lease('env:other', 'c2#1', 1) });
    expect(siteAuthorityFirst(h.build()).valid).toBe(true);
  });
});
