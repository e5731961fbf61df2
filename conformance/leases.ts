// Conformance, part one: leases and fencing, waiting, protected mutation and role guards.

import { describe, expect } from 'vitest';
import { renewalOf } from '../sim/renewal-kind.ts';
import { acquire, type Group, type It } from './harness.ts';

export function leaseSections(it: It, group: Group = describe): void {
  group('leases and fencing (§21–§36, §75–§85)', () => {
    it('a free scope is acquired with token 1; a second acquire is Busy, also for the same holder', async ({ run }) => {
      expect(await run(acquire('s', 'a', 500))).toEqual({ kind: 'Acquired', lease: { scope: 's', holder: 'a', token: 1, acquiredAt: 10_000, expiresAt: 10_500 } });
      expect(await run(acquire('s', 'b'))).toEqual({ kind: 'Busy', holder: 'a', token: 1, expiresAt: 10_500 });
      expect(await run(acquire('s', 'a'))).toEqual({ kind: 'Busy', holder: 'a', token: 1, expiresAt: 10_500 });
    });

    it('ttl and ids are validated: ttl-out-of-bounds, invalid-argument, nothing changes', async ({ run, inspected }) => {
      for (const ttlMs of [0, -1, 1.5, 600_001]) expect(await run(acquire('s', 'a', ttlMs))).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
      for (const scope of ['', 'x'.repeat(257), 'a\u0001b', 'a\u007fb', 'nul\u0000']) {
        expect(await run(acquire(scope, 'a'))).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
      }
      expect(await run(acquire('s', ''))).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
      expect(await run(acquire('x'.repeat(256), 'a'))).toMatchObject({ kind: 'Acquired' });
      const view = await inspected();
      if (view !== null) expect(view.tokens).toEqual([{ scope: 'x'.repeat(256), lastToken: 1 }]);
    });

    it('expiry is decided by store time: live iff now < expiresAt, and expiry does not reset the token', async ({ run, clock, inspected }) => {
      await run(acquire('s', 'a', 100));
      clock.advance(99);
      expect(await run(acquire('s', 'b'))).toMatchObject({ kind: 'Busy' });
      clock.advance(1);
      expect(await run(acquire('s', 'b', 100))).toMatchObject({ kind: 'Acquired', lease: { holder: 'b', token: 2 } });
      const view = await inspected();
      if (view !== null) expect(view.tombstones).toEqual([]);
    });

    it('renew: Renewed for the live holder, Expired for its expired row, Stale otherwise', async ({ run, clock, store }) => {
      // A store whose renewals only confirm (capabilities.renewal 'confirms') leaves the expiry where the grant put it.
      const renewedUntil = renewalOf(store) === 'confirms' ? 10_100 : 10_250;
      await run(acquire('s', 'a', 100));
      expect(await run({ kind: 'Renew', scope: 's', holder: 'a', expectedToken: 1, ttlMs: 0 })).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
      clock.advance(50);
      expect(await run({ kind: 'Renew', scope: 's', holder: 'a', expectedToken: 1, ttlMs: 200 })).toEqual({
        kind: 'Renewed',
        lease: { scope: 's', holder: 'a', token: 1, acquiredAt: 10_000, expiresAt: renewedUntil },
      });
      expect(await run({ kind: 'Renew', scope: 's', holder: 'b', expectedToken: 1, ttlMs: 200 })).toEqual({ kind: 'Stale', currentToken: 1 });
      expect(await run({ kind: 'Renew', scope: 's', holder: 'a', expectedToken: 7, ttlMs: 200 })).toEqual({ kind: 'Stale', currentToken: 1 });
      clock.advance(200);
      expect(await run({ kind: 'Renew', scope: 's', holder: 'a', expectedToken: 1, ttlMs: 200 })).toEqual({ kind: 'Expired' });
      expect(await run({ kind: 'Renew', scope: 's', holder: 'b', expectedToken: 1, ttlMs: 200 })).toEqual({ kind: 'Stale', currentToken: null });
      expect(await run({ kind: 'Renew', scope: 'never', holder: 'a', expectedToken: 1, ttlMs: 200 })).toEqual({ kind: 'Stale', currentToken: null });
    });

    it('release ends the lease with a tombstone; a stale release changes nothing', async ({ run, clock, inspected }) => {
      await run(acquire('s', 'a'));
      expect(await run({ kind: 'Release', scope: 's', holder: 'b', token: 1 })).toEqual({ kind: 'Stale', currentToken: 1 });
      clock.advance(5);
      expect(await run({ kind: 'Release', scope: 's', holder: 'a', token: 1 })).toEqual({ kind: 'Released', token: 1 });
      expect(await run({ kind: 'Release', scope: 's', holder: 'a', token: 1 })).toEqual({ kind: 'Stale', currentToken: null });
      expect(await run(acquire('s', 'b'))).toMatchObject({ kind: 'Acquired', lease: { token: 2 } });
      const view = await inspected();
      if (view !== null) expect(view.tombstones).toEqual([{ scope: 's', holder: 'a', token: 1, endedAt: 10_005, cause: 'released' }]);
    });

    it('handoff (§110–§114) issues a new token to the new holder and tombstones the old lease', async ({ run, clock }) => {
      await run(acquire('s', 'a'));
      clock.advance(10);
      expect(await run({ kind: 'Handoff', scope: 's', holder: 'a', token: 1, newHolder: 'b', ttlMs: 0 })).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
      expect(await run({ kind: 'Handoff', scope: 's', holder: 'x', token: 1, newHolder: 'b', ttlMs: 300 })).toEqual({ kind: 'Stale', currentToken: 1 });
      expect(await run({ kind: 'Handoff', scope: 's', holder: 'a', token: 1, newHolder: 'b', ttlMs: 300 })).toEqual({
        kind: 'HandedOff',
        lease: { scope: 's', holder: 'b', token: 2, acquiredAt: 10_010, expiresAt: 10_310 },
      });
      const view = (await run({ kind: 'Inspect' })).view;
      expect(view.tombstones).toEqual([{ scope: 's', holder: 'a', token: 1, endedAt: 10_010, cause: 'handed-off' }]);
      expect(view.leases).toEqual([{ scope: 's', holder: 'b', token: 2, acquiredAt: 10_010, expiresAt: 10_310 }]);
    });

    it('force release (§200–§206) needs the privilege, a reason, the exact token and the expiry observed; it burns one token', async ({ run }) => {
      await run(acquire('s', 'a'));
      const base = { kind: 'ForceRelease', scope: 's', expectedToken: 1, actor: 'ops', reason: 'stuck' } as const;
      expect(await run({ ...base, privileged: false })).toEqual({ kind: 'Denied', reason: 'not-privileged' });
      expect(await run({ ...base, reason: '  ', privileged: true })).toEqual({ kind: 'Denied', reason: 'reason-required' });
      expect(await run({ ...base, expectedToken: 2, privileged: true })).toEqual({ kind: 'Stale', currentToken: 1 });
      // Bound to the expiry observed too: a renewal since then (seed 002 022d1f8) makes the force stale.
      expect(await run({ ...base, expectedExpiresAt: 10_999, privileged: true })).toEqual({ kind: 'Stale', currentToken: 1 });
      const tombstone = { scope: 's', holder: 'a', token: 1, endedAt: 10_000, cause: 'force-released', actor: 'ops', reason: 'stuck' };
      expect(await run({ ...base, expectedExpiresAt: 11_000, privileged: true })).toEqual({ kind: 'ForceReleased', tombstone, nextToken: 3 });
      expect(await run(acquire('s', 'b'))).toMatchObject({ kind: 'Acquired', lease: { token: 3 } });
      expect((await run({ kind: 'Inspect' })).view.tombstones).toEqual([tombstone]);
    });
  });

  group('waiting (§86–§92)', () => {
    it('only the head of the queue may acquire; priority first, then FIFO', async ({ run }) => {
      expect(await run({ kind: 'Enqueue', scope: 's', waiterId: 'w1', holder: 'a', priority: 0 })).toEqual({ kind: 'Enqueued', position: 1 });
      expect(await run({ kind: 'Enqueue', scope: 's', waiterId: 'w2', holder: 'b', priority: 5 })).toEqual({ kind: 'Enqueued', position: 1 });
      expect(await run({ kind: 'Enqueue', scope: 's', waiterId: 'w3', holder: 'c', priority: 0 })).toEqual({ kind: 'Enqueued', position: 3 });
      expect(await run({ kind: 'Enqueue', scope: 'other', waiterId: 'w1', holder: 'a', priority: 0 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
      expect(await run({ kind: 'Enqueue', scope: 's', waiterId: 'w4', holder: 'a', priority: 1001 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
      expect(await run(acquire('s', 'z'))).toEqual({ kind: 'Rejected', reason: 'not-head-of-queue' });
      expect(await run(acquire('s', 'z', 1000, { waiterId: 'nobody' }))).toEqual({ kind: 'Rejected', reason: 'unknown-waiter' });
      expect(await run(acquire('s', 'a', 1000, { waiterId: 'w1' }))).toEqual({ kind: 'Rejected', reason: 'not-head-of-queue' });
      expect(await run(acquire('s', 'b', 1000, { waiterId: 'w2' }))).toMatchObject({ kind: 'Acquired', lease: { holder: 'b', token: 1 } });
      const view = (await run({ kind: 'Inspect' })).view;
      expect(view.waiters.map((w) => [w.waiterId, w.seq])).toEqual([['w1', 1], ['w3', 3]]);
      expect(view.scopeStates).toEqual([{ scope: 's', state: 'Owned' }]);
    });

    it('aging: a waiter gains one priority step per second waited, so no waiter starves (§92)', async ({ run, clock }) => {
      await run({ kind: 'Enqueue', scope: 's', waiterId: 'old', holder: 'a', priority: 0 });
      clock.advance(3_000);
      expect(await run({ kind: 'Enqueue', scope: 's', waiterId: 'new', holder: 'b', priority: 2 })).toEqual({ kind: 'Enqueued', position: 2 });
      expect(await run(acquire('s', 'b', 1000, { waiterId: 'new' }))).toEqual({ kind: 'Rejected', reason: 'not-head-of-queue' });
      expect(await run(acquire('s', 'a', 1000, { waiterId: 'old' }))).toMatchObject({ kind: 'Acquired' });
    });

    it('cancel removes a waiter once; an empty queue with a waiterId is unknown-waiter', async ({ run }) => {
      await run({ kind: 'Enqueue', scope: 's', waiterId: 'w1', holder: 'a', priority: 0 });
      expect(await run({ kind: 'CancelWait', scope: 'other', waiterId: 'w1' })).toEqual({ kind: 'NotWaiting' });
      expect(await run({ kind: 'CancelWait', scope: 's', waiterId: 'w1' })).toEqual({ kind: 'WaitCancelled' });
      expect(await run({ kind: 'CancelWait', scope: 's', waiterId: 'w1' })).toEqual({ kind: 'NotWaiting' });
      expect(await run(acquire('s', 'a', 1000, { waiterId: 'w1' }))).toEqual({ kind: 'Rejected', reason: 'unknown-waiter' });
      expect((await run({ kind: 'Inspect' })).view.scopeStates).toEqual([]);
    });
  });

  group('protected mutation and role guards (§66–§70; seed 001 §92–§95)', () => {
    it('needs the live token and the expected version; both are checked', async ({ run, clock, inspected }) => {
      await run(acquire('s', 'a', 100));
      const m = { kind: 'Mutate', scope: 's', aggregate: 'deploy', holder: 'a', token: 1 } as const;
      expect(await run({ ...m, expectedVersion: 0 })).toEqual({ kind: 'Accepted', version: 1, token: 1 });
      expect(await run({ ...m, expectedVersion: 0 })).toEqual({ kind: 'StaleVersion', currentVersion: 1 });
      expect(await run({ ...m, holder: 'b', expectedVersion: 1 })).toEqual({ kind: 'StaleFence', currentToken: 1 });
      clock.advance(100);
      expect(await run({ ...m, expectedVersion: 1 })).toEqual({ kind: 'StaleFence', currentToken: null });
      const view = await inspected();
      if (view !== null) expect(view.aggregates).toEqual([{ scope: 's', aggregate: 'deploy', version: 1, lastToken: 1 }]);
    });

    it('a guard below the stored role epoch is Fenced; an equal or newer one raises it, even when the rest fails', async ({ run }) => {
      expect(await run({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: 3 })).toEqual({ kind: 'RoleEpochAdvanced', role: 'scheduler', epoch: 3 });
      expect(await run({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: 2 })).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 3 });
      expect(await run(acquire('s', 'a', 1000, { guard: { role: 'scheduler', epoch: 2 } }))).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 3 });
      expect(await run(acquire('s', 'a', 0, { guard: { role: 'scheduler', epoch: 5 } }))).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
      expect(await run({ kind: 'Mutate', scope: 's', aggregate: 'g', holder: 'a', token: 1, expectedVersion: 0, guard: { role: 'scheduler', epoch: 4 } })).toEqual({
        kind: 'Fenced',
        role: 'scheduler',
        currentEpoch: 5,
      });
      expect((await run({ kind: 'Inspect' })).view.roleEpochs).toEqual([{ role: 'scheduler', epoch: 5 }]);
    });

    it('an epoch that is not a finite number is Fenced like a negative one and writes nothing (clarification 15)', async ({ run }) => {
      for (const epoch of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1]) {
        expect(await run({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch })).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 0 });
        expect(await run(acquire('s', 'a', 1000, { guard: { role: 'scheduler', epoch } }))).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 0 });
        expect(await run({ kind: 'Mutate', scope: 's', aggregate: 'g', holder: 'a', token: 1, expectedVersion: 0, guard: { role: 'deployer', epoch } })).toEqual({
          kind: 'Fenced',
          role: 'deployer',
          currentEpoch: 0,
        });
      }
      const view = (await run({ kind: 'Inspect' })).view;
      expect(view.roleEpochs).toEqual([]);
      expect(view.leases).toEqual([]);
      expect(await run({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: 1 })).toEqual({ kind: 'RoleEpochAdvanced', role: 'scheduler', epoch: 1 });
      expect(await run(acquire('s', 'a', 1000, { guard: { role: 'scheduler', epoch: Number.NaN } }))).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 1 });
    });
  });
}
