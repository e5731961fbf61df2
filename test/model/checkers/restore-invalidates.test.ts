// seed 000 §272–§276, §297: after restore or failover no pre-fault token is honoured and blocked scopes wait for reconciliation.
import { describe, expect, it } from 'vitest';
import { restoreInvalidates } from '../../../model/checkers/restore-invalidates.ts';
import { HistoryBuilder, acquired, lease, leaseHeld, mutated, failing } from './history-builder.ts';

describe('restore-invalidates', () => {
  it('passes writes under post-restore tokens and an Acquire after ReconcileScope', () => {
    const { h } = leaseHeld('A', 7);
    mutated(h, 'c1#1', 'env', 'A', 7);
    h.fault('db-restore', { blockedScopes: ['env'] });
    h.op('c1#1', { kind: 'Mutate', scope: 'env', aggregate: 'agg', holder: 'A', token: 7, expectedVersion: 1 }, { kind: 'StaleFence', currentToken: null });
    h.op('c2#1', { kind: 'Acquire', scope: 'env', holder: 'B', ttlMs: 100 }, { kind: 'Rejected', reason: 'blocked-for-reconciliation' });
    h.op('ops#1', { kind: 'ReconcileScope', scope: 'env', actor: 'ops' }, { kind: 'Reconciled' });
    acquired(h, 'c2#1', 'env', 'B', 1_000_000_001);
    mutated(h, 'c2#1', 'env', 'B', 1_000_000_001, 1);
    expect(restoreInvalidates(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails a write accepted after failover under a token issued before it', () => {
    const { h, issued } = leaseHeld('A', 7);
    const failover = h.fault('db-failover', {});
    const stale = h.truth('mutation-accepted', { scope: 'env', aggregate: 'agg', token: 7, holder: 'A', version: 1 });
    const [violation] = failing(restoreInvalidates(h.build()), 1);
    expect(violation).toMatchObject({ invariant: 'restore-invalidates', scope: 'env', events: [issued, failover, stale] });
  });

  it('fails an Acquire on a blocked scope before any ReconcileScope', () => {
    const h = new HistoryBuilder();
    const restore = h.fault('db-restore', { blockedScopes: ['env'] });
    const [invoke, ok] = h.op('c1#1', { kind: 'AcquireAll', scopes: ['db', 'env'], holder: 'A', ttlMs: 100 }, {
      kind: 'AcquiredAll', leases: [{ scope: 'db', holder: 'A', token: 1, acquiredAt: 1, expiresAt: 101 }, { scope: 'env', holder: 'A', token: 1, acquiredAt: 1, expiresAt: 101 }],
    });
    const [violation] = failing(restoreInvalidates(h.build()));
    expect(violation).toMatchObject({ scope: 'env', events: [restore, invoke, ok] });
  });
  // The holder decides an effect on the store's last word: a renewal the store was asked for before
  // the fault (answered after it, as to a paused holder) could not tell it of the fault; one asked
  // after the fault could, so an effect made on it is judged.
  const effectAfterRenewal = (renewBeforeFault: boolean): { readonly h: HistoryBuilder; readonly effect: number } => {
    const { h } = leaseHeld('A', 7);
    const renew = { kind: 'Renew', scope: 'env', holder: 'A', expectedToken: 7, ttlMs: 10_000 } as const;
    if (!renewBeforeFault) h.fault('db-restore', {});
    h.invoke('c1#1', 'Renew', renew);
    if (renewBeforeFault) h.fault('db-restore', {});
    h.event('c1#1', 'ok', 'Renew', { kind: 'Renewed', lease: lease('env', 'A', 7) });
    h.call('c1#1', 'effect', { intentId: 'op1/e', scope: 'env', token: 7 }, 'ok', { applied: true });
    const effect = h.truth('effect-applied', { intentId: 'op1/e', scope: 'env', token: 7, holder: 'A', operation: 'deploy' });
    return { h, effect };
  };

  it('passes an effect decided on a renewal asked before the restore, though called after it (000 §275 reconciles it)', () => {
    expect(restoreInvalidates(effectAfterRenewal(true).h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails an effect decided on a renewal asked after the restore under a token issued before it', () => {
    const { h, effect } = effectAfterRenewal(false);
    const [violation] = failing(restoreInvalidates(h.build()), 1);
    expect(violation).toMatchObject({ invariant: 'restore-invalidates', scope: 'env' });
    expect(violation!.events).toContain(effect);
  });

  it('fails an effect after the restore made past the expiry of the lease confirmed before it, or after a refusal the holder heard after it', () => {
    // Acquired before the restore with a 10 s lease and never confirmed again: an effect within the
    // lease passes (the holder could not know), one past its expiry is judged.
    const within = leaseHeld('A', 7).h;
    within.fault('db-restore', {});
    within.call('c1#1', 'effect', { intentId: 'op1/e', scope: 'env', token: 7 }, 'ok', { applied: true });
    within.truth('effect-applied', { intentId: 'op1/e', scope: 'env', token: 7, holder: 'A', operation: 'deploy' });
    expect(restoreInvalidates(within.build()).valid).toBe(true);

    const late = leaseHeld('A', 7).h;
    late.fault('db-restore', {});
    late.at(20_000);
    late.call('c1#1', 'effect', { intentId: 'op1/e', scope: 'env', token: 7 }, 'ok', { applied: true });
    late.truth('effect-applied', { intentId: 'op1/e', scope: 'env', token: 7, holder: 'A', operation: 'deploy' });
    failing(restoreInvalidates(late.build()), 1);

    const refused = leaseHeld('A', 7).h;
    refused.fault('db-restore', {});
    refused.op('c1#1', { kind: 'Renew', scope: 'env', holder: 'A', expectedToken: 7, ttlMs: 10_000 }, { kind: 'Stale', currentToken: null });
    refused.call('c1#1', 'effect', { intentId: 'op1/e', scope: 'env', token: 7 }, 'ok', { applied: true });
    refused.truth('effect-applied', { intentId: 'op1/e', scope: 'env', token: 7, holder: 'A', operation: 'deploy' });
    failing(restoreInvalidates(refused.build()), 1);
  });
});
