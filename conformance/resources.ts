// Conformance, part two: semaphores and reservations, multi-resource acquisition, idempotency,
// effect intents, recovery, snapshot and restore, and the inspect view.

import { describe, expect } from 'vitest';
import { acquire, key, Lacks, STRIDE, type Group, type It } from './harness.ts';

export function resourceSections(it: It, group: Group = describe): void {
  group('semaphores and reservations (§37–§42, §93–§98, §207–§213)', () => {
    it('permits and reservations share the capacity; overbooking is an outcome', async ({ run, clock }) => {
      const permit = { kind: 'AcquirePermit', scope: 'slots', holder: 'h', ttlMs: 100 } as const;
      expect(await run({ ...permit, permitId: 'p1', units: 1 })).toEqual({ kind: 'Rejected', reason: 'undefined-capacity' });
      expect(await run({ kind: 'DefineCapacity', scope: 'slots', capacity: 0 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
      expect(await run({ kind: 'DefineCapacity', scope: 'slots', capacity: 3 })).toEqual({ kind: 'Defined', capacity: 3 });
      expect(await run({ ...permit, permitId: 'p1', units: 0 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
      expect(await run({ ...permit, permitId: 'p1', units: 2 })).toEqual({ kind: 'Granted', permit: { scope: 'slots', permitId: 'p1', holder: 'h', units: 2, expiresAt: 10_100 } });
      expect(await run({ ...permit, permitId: 'p1', units: 1 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
      expect(await run({ ...permit, permitId: 'p2', units: 2 })).toEqual({ kind: 'Busy', inUse: 2, capacity: 3 });
      const reserve = { kind: 'Reserve', scope: 'slots', owner: 'o', ttlMs: 50 } as const;
      expect(await run({ ...reserve, reservationId: 'r1', units: 1 })).toEqual({
        kind: 'Reserved',
        reservation: { scope: 'slots', reservationId: 'r1', owner: 'o', units: 1, state: 'Pending', createdAt: 10_000, expiresAt: 10_050 },
      });
      expect(await run({ ...reserve, reservationId: 'r2', units: 1 })).toEqual({ kind: 'Overbooked', inUse: 3, capacity: 3 });
      expect(await run({ ...reserve, reservationId: 'r1', units: 1 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
      expect(await run({ kind: 'ReleasePermit', scope: 'slots', permitId: 'p1' })).toEqual({ kind: 'PermitReleased' });
      expect(await run({ kind: 'ReleasePermit', scope: 'slots', permitId: 'p1' })).toEqual({ kind: 'NotHeld' });
      clock.advance(50);
      // r1 expired: it holds nothing any more.
      expect(await run({ ...permit, permitId: 'p3', units: 3 })).toMatchObject({ kind: 'Granted' });
    });

    it('reservation transitions follow the state machine; an expired reservation is never consumed', async ({ run, clock }) => {
      await run({ kind: 'DefineCapacity', scope: 'slots', capacity: 5 });
      const reserve = { kind: 'Reserve', scope: 'slots', owner: 'o', units: 1, ttlMs: 100 } as const;
      await run({ ...reserve, reservationId: 'r1' });
      await run({ ...reserve, reservationId: 'r2' });
      expect(await run({ kind: 'ActivateReservation', reservationId: 'nope' })).toEqual({ kind: 'NotFound' });
      expect(await run({ kind: 'ActivateReservation', reservationId: 'r1' })).toMatchObject({ kind: 'ReservationUpdated', reservation: { state: 'Active' } });
      expect(await run({ kind: 'ActivateReservation', reservationId: 'r1' })).toEqual({ kind: 'InvalidState', state: 'Active' });
      expect(await run({ kind: 'ConsumeReservation', reservationId: 'r1' })).toMatchObject({ kind: 'ReservationUpdated', reservation: { state: 'Consumed' } });
      expect(await run({ kind: 'ReleaseReservation', reservationId: 'r1' })).toEqual({ kind: 'InvalidState', state: 'Consumed' });
      clock.advance(100);
      expect(await run({ kind: 'ConsumeReservation', reservationId: 'r2' })).toEqual({ kind: 'ReservationExpired' });
      expect(await run({ kind: 'FailReservation', reservationId: 'r2' })).toEqual({ kind: 'ReservationExpired' });
      const view = (await run({ kind: 'Inspect' })).view;
      expect(view.reservations.map((r) => [r.reservationId, r.state])).toEqual([['r1', 'Consumed'], ['r2', 'Expired']]);
    });
  });

  group('multi-resource acquisition (§99–§109)', () => {
    it('all or nothing, in canonical order', async ({ run }) => {
      const all = { kind: 'AcquireAll', holder: 'h', ttlMs: 100 } as const;
      expect(await run({ ...all, scopes: [] })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
      expect(await run({ ...all, scopes: ['a', 'a'] })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
      await run(acquire('b', 'x'));
      expect(await run({ ...all, scopes: ['c', 'b', 'a'] })).toEqual({ kind: 'Busy', scope: 'b', holder: 'x', token: 1 });
      expect((await run({ kind: 'Inspect' })).view.leases.map((l) => l.scope)).toEqual(['b']);
      const result = await run({ ...all, scopes: ['c', 'a'] });
      expect(result).toMatchObject({ kind: 'AcquiredAll' });
      if (result.kind === 'AcquiredAll') expect(result.leases.map((l) => [l.scope, l.token])).toEqual([['a', 1], ['c', 1]]);
    });
  });

  group('idempotency (§43–§58)', () => {
    const begin = { kind: 'IdempotencyBegin', ...key, digest: 'd1', retentionMs: 1000, retryAfterTerminal: false } as const;
    const complete = { kind: 'IdempotencyComplete', ...key, digest: 'd1' } as const;

    it('new, in progress, replay; another digest is always a conflict', async ({ run }) => {
      expect(await run({ ...begin, retentionMs: 0 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
      expect(await run(begin)).toEqual({ kind: 'New' });
      expect(await run(begin)).toEqual({ kind: 'InProgress' });
      expect(await run({ ...begin, digest: 'd2' })).toEqual({ kind: 'Conflict', existingDigest: 'd1' });
      expect(await run({ ...complete, digest: 'd2', outcome: { kind: 'Succeeded', response: 'x' } })).toEqual({ kind: 'Conflict', existingDigest: 'd1' });
      expect(await run({ ...complete, outcome: { kind: 'Succeeded', response: 'ok' } })).toEqual({ kind: 'Recorded' });
      expect(await run(begin)).toEqual({ kind: 'Replay', outcome: { kind: 'Succeeded', response: 'ok' } });
      expect(await run({ ...complete, outcome: { kind: 'Succeeded', response: 'other' } })).toEqual({ kind: 'AlreadyFinal', outcome: { kind: 'Succeeded', response: 'ok' } });
      expect(await run({ ...begin, digest: 'd2' })).toEqual({ kind: 'Conflict', existingDigest: 'd1' });
    });

    it('Unknown is never turned into a new operation (§53); FailedTerminal restarts only when the policy allows', async ({ run }) => {
      await run(begin);
      await run({ ...complete, outcome: { kind: 'Unknown' } });
      expect(await run(begin)).toEqual({ kind: 'Unknown' });
      expect(await run({ ...complete, outcome: { kind: 'FailedTerminal', error: 'declined' } })).toEqual({ kind: 'Recorded' });
      expect(await run(begin)).toEqual({ kind: 'Replay', outcome: { kind: 'FailedTerminal', error: 'declined' } });
      expect(await run({ ...begin, retryAfterTerminal: true })).toEqual({ kind: 'New' });
      expect(await run(begin)).toEqual({ kind: 'InProgress' });
    });

    it('an expired record is absent', async ({ run, clock }) => {
      await run(begin);
      clock.advance(1000);
      expect(await run({ ...complete, outcome: { kind: 'Succeeded', response: 'late' } })).toEqual({ kind: 'NotFound' });
      expect((await run({ kind: 'Inspect' })).view.idempotency).toEqual([]);
      expect(await run({ ...begin, digest: 'd2' })).toEqual({ kind: 'New' });
      expect((await run({ kind: 'Inspect' })).view.idempotency).toEqual([
        { ...key, digest: 'd2', state: 'InProgress', outcome: null, createdAt: 11_000, expiresAt: 12_000 },
      ]);
    });
  });

  group('effect intents (§59–§65)', () => {
    it('planned once, then only the allowed transitions', async ({ run }) => {
      const plan = { kind: 'PlanIntent', intentId: 'i1', scope: 's', token: 4, operation: 'charge', retrySafety: 'InspectBeforeRetry' } as const;
      const intent = { intentId: 'i1', scope: 's', token: 4, operation: 'charge', retrySafety: 'InspectBeforeRetry', state: 'Planned' };
      expect(await run(plan)).toEqual({ kind: 'Planned', intent });
      expect(await run({ ...plan, operation: 'other' })).toEqual({ kind: 'Duplicate', intent });
      expect(await run({ kind: 'TransitionIntent', intentId: 'nope', to: 'Started' })).toEqual({ kind: 'NotFound' });
      expect(await run({ kind: 'TransitionIntent', intentId: 'i1', to: 'Succeeded' })).toEqual({ kind: 'InvalidTransition', from: 'Planned', to: 'Succeeded' });
      expect(await run({ kind: 'TransitionIntent', intentId: 'i1', to: 'Started' })).toEqual({ kind: 'Transitioned', intent: { ...intent, state: 'Started' } });
      expect(await run({ kind: 'TransitionIntent', intentId: 'i1', to: 'Unknown' })).toMatchObject({ kind: 'Transitioned' });
      expect(await run({ kind: 'TransitionIntent', intentId: 'i1', to: 'Started' })).toEqual({ kind: 'InvalidTransition', from: 'Unknown', to: 'Started' });
      expect(await run({ kind: 'TransitionIntent', intentId: 'i1', to: 'Reconciled' })).toMatchObject({ kind: 'Transitioned' });
    });
  });

  group('recovery (§228–§240, §269–§276)', () => {
    it('a new recovery epoch invalidates live leases, lifts tokens above the stride and blocks scopes until reconciled', async ({ run, clock }) => {
      await run(acquire('b', 'x', 1000));
      await run(acquire('a', 'y', 1000));
      await run(acquire('c', 'z', 10));
      clock.advance(10);
      expect(await run({ kind: 'AdvanceRecoveryEpoch', atLeast: 0, blockScopes: ['a'] })).toEqual({ kind: 'RecoveryAdvanced', recoveryEpoch: 1, invalidated: 2 });
      expect(await run(acquire('a', 'y'))).toEqual({ kind: 'Rejected', reason: 'blocked-for-reconciliation' });
      expect(await run(acquire('b', 'x'))).toMatchObject({ kind: 'Acquired', lease: { token: STRIDE + 1 } });
      expect(await run({ kind: 'ReconcileScope', scope: 'b', actor: 'ops' })).toEqual({ kind: 'NotBlocked' });
      expect(await run({ kind: 'ReconcileScope', scope: 'a', actor: 'ops' })).toEqual({ kind: 'Reconciled' });
      expect(await run(acquire('a', 'y'))).toMatchObject({ kind: 'Acquired', lease: { token: STRIDE + 1 } });
      expect(await run({ kind: 'AdvanceRecoveryEpoch', atLeast: 5, blockScopes: [] })).toMatchObject({ recoveryEpoch: 5, invalidated: 2 });
      const view = (await run({ kind: 'Inspect' })).view;
      expect(view.recoveryEpoch).toBe(5);
      expect(view.tombstones.filter((t) => t.cause === 'restored').map((t) => [t.scope, t.token])).toEqual([
        ['a', 1],
        ['b', 1],
        ['a', STRIDE + 1],
        ['b', STRIDE + 1],
      ]);
    });
  });

  group('snapshot and restore (§228–§240, §271–§274)', () => {
    it('a restored image brings back the old state; only a new recovery epoch keeps tokens from repeating', async ({ run, store }) => {
      if (!store.snapshot || !store.restore) throw new Lacks('snapshot() and restore()');
      await run(acquire('s', 'a', 100));
      await run({ kind: 'Release', scope: 's', holder: 'a', token: 1 });
      const image = await store.snapshot();
      const before = (await run({ kind: 'Inspect' })).view;
      await run(acquire('s', 'b', 100));
      await store.restore(image);
      expect((await run({ kind: 'Inspect' })).view).toEqual(before);
      // Without advancing the recovery epoch the restored store would hand out token 2 again
      // (the -unmitigated case); with it, every token lies above the old range.
      expect(await run({ kind: 'AdvanceRecoveryEpoch', atLeast: 2, blockScopes: [] })).toEqual({ kind: 'RecoveryAdvanced', recoveryEpoch: 2, invalidated: 0 });
      expect(await run(acquire('s', 'c', 100))).toMatchObject({ kind: 'Acquired', lease: { token: 2 * STRIDE + 1 } });
    });
  });

  group('inspect', () => {
    it('lists every part of the state in the rule-book order', async ({ run }) => {
      await run(acquire('zeta', 'h'));
      await run(acquire('Alpha', 'h'));
      await run({ kind: 'Enqueue', scope: 'q', waiterId: 'w', holder: 'h', priority: 0 });
      await run({ kind: 'DefineCapacity', scope: 'cap', capacity: 2 });
      await run({ kind: 'AdvanceRecoveryEpoch', atLeast: 0, blockScopes: ['blocked'] });
      const view = (await run({ kind: 'Inspect' })).view;
      expect(view.scopeStates).toEqual([
        { scope: 'Alpha', state: 'Free' },
        { scope: 'blocked', state: 'BlockedForReconciliation' },
        { scope: 'cap', state: 'Free' },
        { scope: 'q', state: 'Waiting' },
        { scope: 'zeta', state: 'Free' },
      ]);
      expect(view.tokens).toEqual([
        { scope: 'Alpha', lastToken: 1 },
        { scope: 'zeta', lastToken: 1 },
      ]);
      expect(view.tombstones.map((t) => t.scope)).toEqual(['Alpha', 'zeta']);
    });
  });
}
