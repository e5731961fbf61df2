// seed 000 §37–§42, §93–§109, §207–§213 and model/SEMANTICS.md "Semaphores and reservations"/"Multi-resource": admission order and states.

import { describe, expect, test } from 'vitest';
import { ModelDriver, scope } from './model-driver.ts';

const SLOTS = scope('macos', 'Custom');

function withCapacity(capacity: number): ModelDriver {
  const m = new ModelDriver();
  m.expect({ kind: 'DefineCapacity', scope: SLOTS, capacity }, 'Defined');
  return m;
}

describe('permits', () => {
  test('admission order: ttl, undefined capacity, invalid units or ids, blocked', () => {
    const m = new ModelDriver();
    const permit = { kind: 'AcquirePermit', scope: SLOTS, permitId: 'p', holder: 'A', units: 1, ttlMs: 100 } as const;
    expect(m.run({ ...permit, ttlMs: 0, units: 0 })).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
    expect(m.run({ ...permit, units: 0 })).toEqual({ kind: 'Rejected', reason: 'undefined-capacity' });
    m.expect({ kind: 'DefineCapacity', scope: SLOTS, capacity: 2 }, 'Defined');
    expect(m.run({ ...permit, units: 0 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
    expect(m.run({ ...permit, permitId: '' })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
    m.expect({ kind: 'AdvanceRecoveryEpoch', atLeast: 0, blockScopes: [SLOTS] }, 'RecoveryAdvanced');
    expect(m.run(permit)).toEqual({ kind: 'Rejected', reason: 'blocked-for-reconciliation' });
  });

  test('a live permit id cannot be reused; an expired one can, and expired permits free their units', () => {
    const m = withCapacity(2);
    m.expect({ kind: 'AcquirePermit', scope: SLOTS, permitId: 'p', holder: 'A', units: 2, ttlMs: 100 }, 'Granted');
    expect(m.run({ kind: 'AcquirePermit', scope: SLOTS, permitId: 'p', holder: 'A', units: 1, ttlMs: 100 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
    m.advance(100).expect({ kind: 'AcquirePermit', scope: SLOTS, permitId: 'p', holder: 'B', units: 2, ttlMs: 100 }, 'Granted');
    expect(m.run({ kind: 'ReleasePermit', scope: scope('other'), permitId: 'p' })).toEqual({ kind: 'NotHeld' });
  });

  test('DefineCapacity validates, and lowering capacity revokes nothing', () => {
    const m = withCapacity(3);
    expect(m.run({ kind: 'DefineCapacity', scope: SLOTS, capacity: 0 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
    expect(m.run({ kind: 'DefineCapacity', scope: SLOTS, capacity: 10_001 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
    m.expect({ kind: 'AcquirePermit', scope: SLOTS, permitId: 'p', holder: 'A', units: 3, ttlMs: 100 }, 'Granted');
    m.expect({ kind: 'DefineCapacity', scope: SLOTS, capacity: 1 }, 'Defined');
    expect(m.view().permits).toHaveLength(1);
    expect(m.run({ kind: 'AcquirePermit', scope: SLOTS, permitId: 'q', holder: 'B', units: 1, ttlMs: 100 })).toEqual({ kind: 'Busy', inUse: 3, capacity: 1 });
  });
});

describe('reservations', () => {
  test('Pending -> Active -> Consumed, and a consumed reservation frees capacity', () => {
    const m = withCapacity(1);
    m.expect({ kind: 'Reserve', scope: SLOTS, reservationId: 'r', owner: 'job', units: 1, ttlMs: 1_000 }, 'Reserved');
    expect(m.run({ kind: 'ActivateReservation', reservationId: 'r' })).toMatchObject({ kind: 'ReservationUpdated', reservation: { state: 'Active' } });
    expect(m.run({ kind: 'ActivateReservation', reservationId: 'r' })).toEqual({ kind: 'InvalidState', state: 'Active' });
    expect(m.run({ kind: 'ConsumeReservation', reservationId: 'r' })).toMatchObject({ kind: 'ReservationUpdated', reservation: { state: 'Consumed' } });
    expect(m.run({ kind: 'ReleaseReservation', reservationId: 'r' })).toEqual({ kind: 'InvalidState', state: 'Consumed' });
    m.expect({ kind: 'Reserve', scope: SLOTS, reservationId: 's', owner: 'job', units: 1, ttlMs: 1_000 }, 'Reserved');
  });

  test('an expired reservation cannot be consumed and reads as Expired; its id is never reused', () => {
    const m = withCapacity(1);
    m.expect({ kind: 'Reserve', scope: SLOTS, reservationId: 'r', owner: 'job', units: 1, ttlMs: 1_000 }, 'Reserved');
    m.advance(1_000);
    expect(m.run({ kind: 'ConsumeReservation', reservationId: 'r' })).toEqual({ kind: 'ReservationExpired' });
    expect(m.view().reservations.map((r) => r.state)).toEqual(['Expired']);
    expect(m.run({ kind: 'Reserve', scope: SLOTS, reservationId: 'r', owner: 'job', units: 1, ttlMs: 1_000 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
    expect(m.run({ kind: 'FailReservation', reservationId: 'nope' })).toEqual({ kind: 'NotFound' });
  });
});

describe('AcquireAll', () => {
  const a = scope('a');
  const b = scope('b');

  test('invalid lists are rejected: empty, duplicates, bad ttl first', () => {
    const m = new ModelDriver();
    expect(m.run({ kind: 'AcquireAll', scopes: [], holder: 'H', ttlMs: 0 })).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
    expect(m.run({ kind: 'AcquireAll', scopes: [], holder: 'H', ttlMs: 10 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
    expect(m.run({ kind: 'AcquireAll', scopes: [a, a], holder: 'H', ttlMs: 10 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
  });

  test('one pass in canonical order: the first failing scope decides, and nothing is taken', () => {
    const [first, second] = [a, b].sort();
    const m = new ModelDriver();
    m.expect({ kind: 'Acquire', scope: second!, holder: 'X', ttlMs: 100 }, 'Acquired');
    m.expect({ kind: 'Enqueue', scope: first!, waiterId: 'w', holder: 'Y', priority: 0 }, 'Enqueued');
    expect(m.run({ kind: 'AcquireAll', scopes: [second!, first!], holder: 'H', ttlMs: 10 })).toEqual({ kind: 'Rejected', reason: 'not-head-of-queue' });
    m.expect({ kind: 'CancelWait', scope: first!, waiterId: 'w' }, 'WaitCancelled');
    expect(m.run({ kind: 'AcquireAll', scopes: [second!, first!], holder: 'H', ttlMs: 10 })).toMatchObject({ kind: 'Busy', scope: second, holder: 'X' });
    expect(m.view().leases.map((l) => l.holder)).toEqual(['X']);
    expect(m.view().tokens).toEqual([{ scope: second, lastToken: 1 }]);
  });
});
