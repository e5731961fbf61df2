// seed 000 §278–§282, §286–§287, §290, §297–§298: lease identity, ownership, fencing, force release, restore and upgrade.

import { describe, expect, test } from 'vitest';
import { TOKEN_EPOCH_STRIDE } from '../../model/constants.ts';
import { scopeId } from '../../model/scope.ts';
import { initialState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { ModelDriver, scope } from './model-driver.ts';

const PROD = scope('prod');

describe('seed 000 test list: leases', () => {
  test('000 §278 scope identity deterministic', () => {
    const ref = { tenant: 'acme', kind: 'DeploymentEnvironment', name: 'prod' } as const;
    const first = scopeId(ref);
    const second = scopeId({ ...ref });
    expect(first).toEqual(second);
    expect(first.kind === 'Scope' && first.id).toBe(PROD);
    expect(scopeId({ ...ref, name: 'prod ' })).not.toEqual(first);
  });

  test('000 §279 lease acquire: only one holder', () => {
    const m = new ModelDriver();
    const a = m.expect({ kind: 'Acquire', scope: PROD, holder: 'A', ttlMs: 10_000 }, 'Acquired');
    const b = m.expect({ kind: 'Acquire', scope: PROD, holder: 'B', ttlMs: 10_000 }, 'Busy');
    expect(b).toEqual({ kind: 'Busy', holder: 'A', token: a.lease.token, expiresAt: a.lease.expiresAt });
    m.expect({ kind: 'Acquire', scope: PROD, holder: 'A', ttlMs: 10_000 }, 'Busy');
    expect(m.view().leases).toHaveLength(1);
  });

  test('000 §280 lease expiry: the new owner gets a higher epoch', () => {
    const m = new ModelDriver();
    const a = m.expect({ kind: 'Acquire', scope: PROD, holder: 'A', ttlMs: 5_000 }, 'Acquired');
    m.advance(4_999).expect({ kind: 'Acquire', scope: PROD, holder: 'B', ttlMs: 5_000 }, 'Busy');
    const b = m.advance(1).expect({ kind: 'Acquire', scope: PROD, holder: 'B', ttlMs: 5_000 }, 'Acquired');
    expect(b.lease.token).toBe(a.lease.token + 1);
    expect(m.view().tombstones).toEqual([]);
  });

  test('000 §281 stale holder: old token rejected', () => {
    const m = new ModelDriver();
    const a = m.expect({ kind: 'Acquire', scope: PROD, holder: 'A', ttlMs: 1_000 }, 'Acquired');
    m.expect({ kind: 'Mutate', scope: PROD, aggregate: 'deploy', holder: 'A', token: a.lease.token, expectedVersion: 0 }, 'Accepted');
    m.advance(1_000);
    const b = m.expect({ kind: 'Acquire', scope: PROD, holder: 'B', ttlMs: 1_000 }, 'Acquired');
    const stale = m.expect({ kind: 'Mutate', scope: PROD, aggregate: 'deploy', holder: 'A', token: a.lease.token, expectedVersion: 1 }, 'StaleFence');
    expect(stale.currentToken).toBe(b.lease.token);
    m.expect({ kind: 'Release', scope: PROD, holder: 'A', token: a.lease.token }, 'Stale');
    m.expect({ kind: 'Mutate', scope: PROD, aggregate: 'deploy', holder: 'B', token: b.lease.token, expectedVersion: 1 }, 'Accepted');
  });

  test('000 §282 renewal race: only the current epoch renews', () => {
    const m = new ModelDriver();
    const a = m.expect({ kind: 'Acquire', scope: PROD, holder: 'A', ttlMs: 1_000 }, 'Acquired');
    m.advance(500).expect({ kind: 'Renew', scope: PROD, holder: 'A', expectedToken: a.lease.token, ttlMs: 1_000 }, 'Renewed');
    m.advance(1_000).expect({ kind: 'Renew', scope: PROD, holder: 'A', expectedToken: a.lease.token, ttlMs: 1_000 }, 'Expired');
    const b = m.expect({ kind: 'Acquire', scope: PROD, holder: 'B', ttlMs: 1_000 }, 'Acquired');
    expect(m.expect({ kind: 'Renew', scope: PROD, holder: 'A', expectedToken: a.lease.token, ttlMs: 1_000 }, 'Stale').currentToken).toBe(b.lease.token);
    m.expect({ kind: 'Renew', scope: PROD, holder: 'A', expectedToken: b.lease.token, ttlMs: 1_000 }, 'Stale');
    m.expect({ kind: 'Renew', scope: PROD, holder: 'B', expectedToken: b.lease.token, ttlMs: 1_000 }, 'Renewed');
  });

  test('000 §286 DB connection loss: durable ownership survives a store-image round trip', () => {
    const m = new ModelDriver();
    const a = m.expect({ kind: 'Acquire', scope: PROD, holder: 'A', ttlMs: 10_000 }, 'Acquired');
    // A session lock would vanish with the connection; the durable row does not: a fresh session
    // over the same state (here a structured clone of it) still sees A as owner.
    const reconnected = new ModelDriver();
    reconnected.state = structuredClone(m.state);
    reconnected.now = m.now + 100;
    reconnected.expect({ kind: 'Acquire', scope: PROD, holder: 'B', ttlMs: 10_000 }, 'Busy');
    reconnected.expect({ kind: 'Renew', scope: PROD, holder: 'A', expectedToken: a.lease.token, ttlMs: 10_000 }, 'Renewed');
  });

  test('000 §287 controller crash: the new controller reconciles before it proceeds', () => {
    const m = new ModelDriver();
    const a = m.expect({ kind: 'Acquire', scope: PROD, holder: 'ctl-1', ttlMs: 1_000 }, 'Acquired');
    m.expect({ kind: 'PlanIntent', intentId: 'i1', scope: PROD, token: a.lease.token, operation: 'rollout', retrySafety: 'InspectBeforeRetry' }, 'Planned');
    m.expect({ kind: 'TransitionIntent', intentId: 'i1', to: 'Started' }, 'Transitioned');
    // ctl-1 crashes; its lease lapses; ctl-2 takes over with a higher token and finds the intent.
    const b = m.advance(1_000).expect({ kind: 'Acquire', scope: PROD, holder: 'ctl-2', ttlMs: 1_000 }, 'Acquired');
    expect(b.lease.token).toBeGreaterThan(a.lease.token);
    const open = m.view().intents.filter((i) => i.scope === PROD && (i.state === 'Started' || i.state === 'Unknown'));
    expect(open.map((i) => i.intentId)).toEqual(['i1']);
    m.expect({ kind: 'TransitionIntent', intentId: 'i1', to: 'Started' }, 'InvalidTransition');
    m.expect({ kind: 'TransitionIntent', intentId: 'i1', to: 'Unknown' }, 'Transitioned');
    m.expect({ kind: 'TransitionIntent', intentId: 'i1', to: 'Reconciled' }, 'Transitioned');
  });

  test('000 §290 force release: requires privilege, reason, exact epoch, and leaves an audit record', () => {
    const m = new ModelDriver();
    const a = m.expect({ kind: 'Acquire', scope: PROD, holder: 'A', ttlMs: 10_000 }, 'Acquired');
    const base = { kind: 'ForceRelease', scope: PROD, expectedToken: a.lease.token, actor: 'oncall', reason: 'stuck rollout verified', privileged: true } as const;
    expect(m.run({ ...base, privileged: false })).toEqual({ kind: 'Denied', reason: 'not-privileged' });
    expect(m.run({ ...base, reason: '  ' })).toEqual({ kind: 'Denied', reason: 'reason-required' });
    expect(m.run({ ...base, expectedToken: a.lease.token + 1 })).toEqual({ kind: 'Stale', currentToken: a.lease.token });
    expect(m.view().leases).toHaveLength(1);
    const forced = m.expect(base, 'ForceReleased');
    expect(forced.tombstone).toEqual({ scope: PROD, holder: 'A', token: a.lease.token, endedAt: m.now, cause: 'force-released', actor: 'oncall', reason: 'stuck rollout verified' });
    expect(forced.nextToken).toBe(a.lease.token + 2);
    const b = m.expect({ kind: 'Acquire', scope: PROD, holder: 'B', ttlMs: 10_000 }, 'Acquired');
    expect(b.lease.token).toBe(forced.nextToken);
    expect(m.view().tombstones).toEqual([forced.tombstone]);
  });

  test('000 §297 DR restore: old leases invalidated, protected scopes blocked until reconciled', () => {
    const m = new ModelDriver();
    const a = m.expect({ kind: 'Acquire', scope: PROD, holder: 'A', ttlMs: 60_000 }, 'Acquired');
    const backup = m.state;
    m.advance(100).expect({ kind: 'Release', scope: PROD, holder: 'A', token: a.lease.token }, 'Released');
    const later = m.expect({ kind: 'Acquire', scope: PROD, holder: 'B', ttlMs: 60_000 }, 'Acquired');
    // Restore the older image: it still shows A's lease, and lower tokens than were handed out.
    m.state = backup;
    const advanced = m.expect({ kind: 'AdvanceRecoveryEpoch', atLeast: 1, blockScopes: [PROD] }, 'RecoveryAdvanced');
    expect(advanced).toEqual({ kind: 'RecoveryAdvanced', recoveryEpoch: 1, invalidated: 1 });
    m.expect({ kind: 'Mutate', scope: PROD, aggregate: 'deploy', holder: 'A', token: a.lease.token, expectedVersion: 0 }, 'StaleFence');
    expect(m.run({ kind: 'Acquire', scope: PROD, holder: 'C', ttlMs: 1_000 })).toEqual({ kind: 'Rejected', reason: 'blocked-for-reconciliation' });
    expect(m.view().scopeStates).toEqual([{ scope: PROD, state: 'BlockedForReconciliation' }]);
    m.expect({ kind: 'ReconcileScope', scope: PROD, actor: 'reconciler' }, 'Reconciled');
    const c = m.expect({ kind: 'Acquire', scope: PROD, holder: 'C', ttlMs: 1_000 }, 'Acquired');
    expect(c.lease.token).toBeGreaterThan(later.lease.token);
    expect(m.view().tombstones.map((t) => t.cause)).toEqual(['restored']);
  });

  test('000 §298 rolling upgrade: tokens stay monotonic across recovery epochs', () => {
    let state = initialState();
    let now = 0;
    const tokens: number[] = [];
    for (let epoch = 0; epoch < 4; epoch++) {
      for (let i = 0; i < 3; i++) {
        const acquired = step(state, { kind: 'Acquire', scope: PROD, holder: `v${epoch}`, ttlMs: 10 }, now);
        state = acquired.state;
        if (acquired.outcome.kind === 'Acquired') tokens.push(acquired.outcome.lease.token);
        now += 10;
      }
      // An upgrade step that skips an epoch number (atLeast) must still keep tokens rising.
      state = step(state, { kind: 'AdvanceRecoveryEpoch', atLeast: epoch * 2, blockScopes: [] }, now).state;
    }
    expect(tokens).toHaveLength(12);
    for (let i = 1; i < tokens.length; i++) expect(tokens[i]!).toBeGreaterThan(tokens[i - 1]!);
    expect(tokens[tokens.length - 1]!).toBeGreaterThan(4 * TOKEN_EPOCH_STRIDE);
  });
});
