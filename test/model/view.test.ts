// seed 000 §153–§154, §237–§238, §272–§275 and model/SEMANTICS.md "Inspect"/"Recovery": the normalized view and recovery epochs.

import { describe, expect, test } from 'vitest';
import { TOKEN_EPOCH_STRIDE } from '../../model/constants.ts';
import { ModelDriver, scope } from './model-driver.ts';

describe('Inspect view', () => {
  test('scope states: Blocked > Owned > Waiting > Free, listed for scopes with a token, waiter, capacity or block', () => {
    const m = new ModelDriver();
    const [owned, waiting, free, blocked] = [scope('owned'), scope('waiting'), scope('free', 'Custom'), scope('blocked')];
    m.expect({ kind: 'Acquire', scope: owned, holder: 'A', ttlMs: 100 }, 'Acquired');
    m.expect({ kind: 'Enqueue', scope: waiting, waiterId: 'w', holder: 'B', priority: 0 }, 'Enqueued');
    m.expect({ kind: 'DefineCapacity', scope: free, capacity: 1 }, 'Defined');
    m.expect({ kind: 'AdvanceRecoveryEpoch', atLeast: 0, blockScopes: [blocked] }, 'RecoveryAdvanced');
    const expected = [
      { scope: owned, state: 'Free' },
      { scope: waiting, state: 'Waiting' },
      { scope: free, state: 'Free' },
      { scope: blocked, state: 'BlockedForReconciliation' },
    ].sort((a, b) => (a.scope < b.scope ? -1 : 1));
    expect(m.view().scopeStates).toEqual(expected);
    expect(m.view().roleEpochs).toEqual([]);
  });

  test('an Owned scope is listed as Owned while its lease is live', () => {
    const m = new ModelDriver();
    const s = scope('prod');
    m.expect({ kind: 'Acquire', scope: s, holder: 'A', ttlMs: 100 }, 'Acquired');
    expect(m.view().scopeStates).toEqual([{ scope: s, state: 'Owned' }]);
    expect(m.advance(100).view().scopeStates).toEqual([{ scope: s, state: 'Free' }]);
    expect(m.view().leases).toEqual([]);
    expect(m.view().tokens).toEqual([{ scope: s, lastToken: 1 }]);
  });
});

describe('recovery epochs', () => {
  test('the epoch is max(epoch + 1, atLeast); restored tombstones are in scope order; expired rows are left alone', () => {
    const m = new ModelDriver();
    const [x, y, z] = [scope('x'), scope('y'), scope('z')].sort();
    m.expect({ kind: 'Acquire', scope: y!, holder: 'B', ttlMs: 1_000 }, 'Acquired');
    const expired = m.expect({ kind: 'Acquire', scope: z!, holder: 'C', ttlMs: 10 }, 'Acquired');
    m.expect({ kind: 'Acquire', scope: x!, holder: 'A', ttlMs: 1_000 }, 'Acquired');
    m.advance(10);
    expect(m.run({ kind: 'AdvanceRecoveryEpoch', atLeast: 5, blockScopes: [] })).toEqual({ kind: 'RecoveryAdvanced', recoveryEpoch: 5, invalidated: 2 });
    expect(m.run({ kind: 'AdvanceRecoveryEpoch', atLeast: 2, blockScopes: [] })).toEqual({ kind: 'RecoveryAdvanced', recoveryEpoch: 6, invalidated: 0 });
    expect(m.view().tombstones.map((t) => [t.scope, t.cause])).toEqual([[x, 'restored'], [y, 'restored']]);
    expect(m.run({ kind: 'Renew', scope: z!, holder: 'C', expectedToken: expired.lease.token, ttlMs: 10 })).toEqual({ kind: 'Expired' });
    const next = m.expect({ kind: 'Acquire', scope: x!, holder: 'A', ttlMs: 10 }, 'Acquired');
    expect(next.lease.token).toBe(6 * TOKEN_EPOCH_STRIDE + 1);
  });

  test('ReconcileScope of a scope that is not blocked changes nothing', () => {
    const m = new ModelDriver();
    expect(m.run({ kind: 'ReconcileScope', scope: scope('prod'), actor: 'ops' })).toEqual({ kind: 'NotBlocked' });
    expect(m.view().scopeStates).toEqual([]);
  });

  test('AdvanceRoleEpoch never lowers an epoch; an equal epoch is accepted', () => {
    const m = new ModelDriver();
    m.expect({ kind: 'AdvanceRoleEpoch', role: 'r', epoch: 3 }, 'RoleEpochAdvanced');
    m.expect({ kind: 'AdvanceRoleEpoch', role: 'r', epoch: 3 }, 'RoleEpochAdvanced');
    expect(m.run({ kind: 'AdvanceRoleEpoch', role: 'r', epoch: 2 })).toEqual({ kind: 'Fenced', role: 'r', currentEpoch: 3 });
    expect(m.view().roleEpochs).toEqual([{ role: 'r', epoch: 3 }]);
  });
});
