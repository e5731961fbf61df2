// seed 000 §21–§36, §86–§92, §110–§114 and model/SEMANTICS.md "Leases"/"Waiting": check order and which outcome wins.

import { describe, expect, test } from 'vitest';
import { LEASE_TTL_MAX_MS } from '../../model/constants.ts';
import { ModelDriver, scope } from './model-driver.ts';

const S = scope('prod');

describe('Acquire check order', () => {
  test('a fenced guard wins over a bad ttl, and a passing guard raises the stored epoch even when rejected', () => {
    const m = new ModelDriver();
    m.expect({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: 2 }, 'RoleEpochAdvanced');
    expect(m.run({ kind: 'Acquire', scope: S, holder: 'A', ttlMs: 0, guard: { role: 'scheduler', epoch: 1 } })).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 2 });
    expect(m.run({ kind: 'Acquire', scope: S, holder: 'A', ttlMs: 0, guard: { role: 'scheduler', epoch: 3 } })).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
    expect(m.view().roleEpochs).toEqual([{ role: 'scheduler', epoch: 3 }]);
  });

  test.each([0, -1, 1.5, LEASE_TTL_MAX_MS + 1, Number.NaN])('ttl %s is out of bounds', (ttlMs) => {
    expect(new ModelDriver().run({ kind: 'Acquire', scope: S, holder: 'A', ttlMs })).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
  });

  test('ids are validated after the ttl: empty, too long, control characters', () => {
    const m = new ModelDriver();
    for (const holder of ['', 'x'.repeat(257), 'a\tb', 'a\u007f']) {
      expect(m.run({ kind: 'Acquire', scope: S, holder, ttlMs: 10 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
    }
    expect(m.run({ kind: 'Acquire', scope: S, holder: 'x'.repeat(256), ttlMs: 10 }).kind).toBe('Acquired');
    expect(m.view().tokens).toEqual([{ scope: S, lastToken: 1 }]);
  });

  test('a live lease answers Busy before the queue is consulted', () => {
    const m = new ModelDriver();
    m.expect({ kind: 'Acquire', scope: S, holder: 'A', ttlMs: 100 }, 'Acquired');
    m.expect({ kind: 'Enqueue', scope: S, waiterId: 'w', holder: 'B', priority: 0 }, 'Enqueued');
    m.expect({ kind: 'Acquire', scope: S, holder: 'B', ttlMs: 100, waiterId: 'nobody' }, 'Busy');
  });

  test('queue rules: unknown waiter, not head, head takes the lease and leaves the queue', () => {
    const m = new ModelDriver();
    expect(m.run({ kind: 'Acquire', scope: S, holder: 'A', ttlMs: 100, waiterId: 'w1' })).toEqual({ kind: 'Rejected', reason: 'unknown-waiter' });
    m.expect({ kind: 'Enqueue', scope: S, waiterId: 'w1', holder: 'A', priority: 0 }, 'Enqueued');
    expect(m.run({ kind: 'Enqueue', scope: S, waiterId: 'w2', holder: 'B', priority: 5 })).toEqual({ kind: 'Enqueued', position: 1 });
    m.expect({ kind: 'Enqueue', scope: scope('other'), waiterId: 'w3', holder: 'C', priority: 0 }, 'Enqueued');
    expect(m.run({ kind: 'Acquire', scope: S, holder: 'A', ttlMs: 100 })).toEqual({ kind: 'Rejected', reason: 'not-head-of-queue' });
    expect(m.run({ kind: 'Acquire', scope: S, holder: 'C', ttlMs: 100, waiterId: 'w3' })).toEqual({ kind: 'Rejected', reason: 'unknown-waiter' });
    expect(m.run({ kind: 'Acquire', scope: S, holder: 'A', ttlMs: 100, waiterId: 'w1' })).toEqual({ kind: 'Rejected', reason: 'not-head-of-queue' });
    m.expect({ kind: 'Acquire', scope: S, holder: 'B', ttlMs: 100, waiterId: 'w2' }, 'Acquired');
    expect(m.view().waiters.map((w) => w.waiterId)).toEqual(['w1', 'w3']);
  });

  test('Enqueue rejects a waiter id queued anywhere and a priority out of bounds; CancelWait needs the right scope', () => {
    const m = new ModelDriver();
    m.expect({ kind: 'Enqueue', scope: S, waiterId: 'w', holder: 'A', priority: 0 }, 'Enqueued');
    expect(m.run({ kind: 'Enqueue', scope: scope('other'), waiterId: 'w', holder: 'A', priority: 0 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
    expect(m.run({ kind: 'Enqueue', scope: S, waiterId: 'v', holder: 'A', priority: 1001 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
    expect(m.run({ kind: 'CancelWait', scope: scope('other'), waiterId: 'w' })).toEqual({ kind: 'NotWaiting' });
    expect(m.run({ kind: 'CancelWait', scope: S, waiterId: 'w' })).toEqual({ kind: 'WaitCancelled' });
    expect(m.run({ kind: 'CancelWait', scope: S, waiterId: 'w' })).toEqual({ kind: 'NotWaiting' });
    m.expect({ kind: 'Enqueue', scope: scope('other'), waiterId: 'w', holder: 'A', priority: 0 }, 'Enqueued');
  });
});

describe('Renew, Release, Handoff', () => {
  test('Renew keeps acquiredAt and moves expiresAt; a wrong holder is Stale', () => {
    const m = new ModelDriver();
    const a = m.expect({ kind: 'Acquire', scope: S, holder: 'A', ttlMs: 100 }, 'Acquired');
    expect(m.run({ kind: 'Renew', scope: S, holder: 'B', expectedToken: a.lease.token, ttlMs: 100 })).toEqual({ kind: 'Stale', currentToken: a.lease.token });
    const renewed = m.advance(50).expect({ kind: 'Renew', scope: S, holder: 'A', expectedToken: a.lease.token, ttlMs: 500 }, 'Renewed');
    expect(renewed.lease).toEqual({ ...a.lease, expiresAt: m.now + 500 });
  });

  test('Release of an expired lease is Stale with no current token and leaves no tombstone', () => {
    const m = new ModelDriver();
    const a = m.expect({ kind: 'Acquire', scope: S, holder: 'A', ttlMs: 100 }, 'Acquired');
    expect(m.advance(100).run({ kind: 'Release', scope: S, holder: 'A', token: a.lease.token })).toEqual({ kind: 'Stale', currentToken: null });
    expect(m.view().tombstones).toEqual([]);
  });

  test('Handoff: tombstone for the old holder, a new token for the new one; the old holder is fenced', () => {
    const m = new ModelDriver();
    const a = m.expect({ kind: 'Acquire', scope: S, holder: 'A', ttlMs: 100 }, 'Acquired');
    expect(m.run({ kind: 'Handoff', scope: S, holder: 'A', token: a.lease.token, newHolder: 'B', ttlMs: 0 })).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
    const b = m.expect({ kind: 'Handoff', scope: S, holder: 'A', token: a.lease.token, newHolder: 'B', ttlMs: 200 }, 'HandedOff');
    expect(b.lease).toEqual({ scope: S, holder: 'B', token: a.lease.token + 1, acquiredAt: m.now, expiresAt: m.now + 200 });
    expect(m.view().tombstones).toEqual([{ scope: S, holder: 'A', token: a.lease.token, endedAt: m.now, cause: 'handed-off' }]);
    m.expect({ kind: 'Mutate', scope: S, aggregate: 'x', holder: 'A', token: a.lease.token, expectedVersion: 0 }, 'StaleFence');
    m.expect({ kind: 'Handoff', scope: S, holder: 'A', token: a.lease.token, newHolder: 'C', ttlMs: 200 }, 'Stale');
  });

  test('Mutate checks the token before the version, and the version is per aggregate', () => {
    const m = new ModelDriver();
    const a = m.expect({ kind: 'Acquire', scope: S, holder: 'A', ttlMs: 100 }, 'Acquired');
    expect(m.run({ kind: 'Mutate', scope: S, aggregate: 'x', holder: 'A', token: a.lease.token + 1, expectedVersion: 5 })).toEqual({ kind: 'StaleFence', currentToken: a.lease.token });
    expect(m.run({ kind: 'Mutate', scope: S, aggregate: 'x', holder: 'A', token: a.lease.token, expectedVersion: 5 })).toEqual({ kind: 'StaleVersion', currentVersion: 0 });
    expect(m.run({ kind: 'Mutate', scope: S, aggregate: 'x', holder: 'A', token: a.lease.token, expectedVersion: 0 })).toEqual({ kind: 'Accepted', version: 1, token: a.lease.token });
    expect(m.run({ kind: 'Mutate', scope: S, aggregate: 'y', holder: 'A', token: a.lease.token, expectedVersion: 0 })).toEqual({ kind: 'Accepted', version: 1, token: a.lease.token });
  });
});
