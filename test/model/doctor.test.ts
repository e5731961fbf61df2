// seed 000 §228–§240: the doctor checks find each problem in a store view, and stay silent on a healthy one.

import { describe, expect, test } from 'vitest';
import { doctor, duplicateActiveOwners, epochRegressions, longContention, orphanReservations } from '../../model/doctor.ts';
import type { StoreView } from '../../model/outcomes.ts';
import { ModelDriver, scope } from './model-driver.ts';

const S = scope('prod');

function healthy(): { readonly m: ModelDriver; readonly view: StoreView } {
  const m = new ModelDriver();
  const a = m.expect({ kind: 'Acquire', scope: S, holder: 'A', ttlMs: 10_000 }, 'Acquired');
  m.expect({ kind: 'PlanIntent', intentId: 'i', scope: S, token: a.lease.token, operation: 'op', retrySafety: 'InspectBeforeRetry' }, 'Planned');
  m.expect({ kind: 'TransitionIntent', intentId: 'i', to: 'Started' }, 'Transitioned');
  return { m, view: m.view() };
}

describe('doctor', () => {
  test('a healthy store has no findings', () => {
    const { m, view } = healthy();
    expect(doctor(view, m.now, { previous: view, contentionMs: 60_000 })).toEqual([]);
  });

  test('duplicate active owner is critical', () => {
    const { view } = healthy();
    const lease = view.leases[0]!;
    const broken: StoreView = { ...view, leases: [lease, { ...lease, holder: 'B', token: lease.token + 1 }] };
    expect(duplicateActiveOwners(broken)).toMatchObject([{ check: 'duplicate-active-owner', severity: 'critical', scope: S }]);
  });

  test('epoch regression between two views is critical', () => {
    const { view } = healthy();
    const regressed: StoreView = { ...view, tokens: [{ scope: S, lastToken: 0 }], recoveryEpoch: -1 };
    expect(epochRegressions(view, regressed).map((f) => f.check)).toEqual(['epoch-regression', 'epoch-regression']);
    expect(epochRegressions(view, view)).toEqual([]);
  });

  test('an expired lease with a Started intent is unreconciled; an Unknown idempotency outcome is reported', () => {
    const { m } = healthy();
    m.advance(10_000);
    m.expect({ kind: 'IdempotencyBegin', tenant: 't', operation: 'o', subject: 's', key: 'k', digest: 'd', retentionMs: 100_000, retryAfterTerminal: false }, 'New');
    m.expect({ kind: 'IdempotencyComplete', tenant: 't', operation: 'o', subject: 's', key: 'k', digest: 'd', outcome: { kind: 'Unknown' } }, 'Recorded');
    expect(doctor(m.view(), m.now, { contentionMs: 60_000 }).map((f) => f.check)).toEqual(['unknown-idempotency-outcome', 'expired-unreconciled-lease']);
  });

  test('orphan reservations and long contention are warnings', () => {
    const m = new ModelDriver();
    const slots = scope('slots', 'Custom');
    m.expect({ kind: 'DefineCapacity', scope: slots, capacity: 1 }, 'Defined');
    m.expect({ kind: 'Reserve', scope: slots, reservationId: 'r', owner: 'o', units: 1, ttlMs: 100 }, 'Reserved');
    m.expect({ kind: 'Enqueue', scope: S, waiterId: 'w', holder: 'A', priority: 0 }, 'Enqueued');
    expect(orphanReservations(m.view())).toEqual([]);
    m.advance(100);
    expect(orphanReservations(m.view())).toMatchObject([{ check: 'orphan-reservation', severity: 'warning' }]);
    expect(longContention(m.view(), m.now, 101)).toEqual([]);
    expect(longContention(m.view(), m.now, 100)).toMatchObject([{ check: 'long-contention', scope: S }]);
  });
});
