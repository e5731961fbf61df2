// seed 000 §93–§96, §207, §212, §293: semaphore capacity is never exceeded, reservations never overbooked, expired reservations never consumed.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../../model/commands.ts';
import { capacity } from '../../../model/checkers/capacity.ts';
import { HistoryBuilder } from './history-builder.ts';

function permit(h: HistoryBuilder, process: string, permitId: string, units: number, expiresAt = 10_000): [number, number] {
  const command: Command = { kind: 'AcquirePermit', scope: 'slots', permitId, holder: process, units, ttlMs: 10_000 };
  return h.op(process, command, { kind: 'Granted', permit: { scope: 'slots', permitId, holder: process, units, expiresAt } });
}

function reserve(h: HistoryBuilder, reservationId: string, units: number, expiresAt: number): [number, number] {
  const command: Command = { kind: 'Reserve', scope: 'slots', reservationId, owner: 'job', units, ttlMs: expiresAt };
  return h.op('r#1', command, { kind: 'Reserved', reservation: { scope: 'slots', reservationId, owner: 'job', units, state: 'Pending', createdAt: 0, expiresAt } });
}

describe('capacity', () => {
  it('passes grants that fit, counting releases, expiry and consumed reservations', () => {
    const h = new HistoryBuilder();
    h.op('admin#1', { kind: 'DefineCapacity', scope: 'slots', capacity: 2 }, { kind: 'Defined', capacity: 2 });
    permit(h, 'c1#1', 'p1', 1);
    permit(h, 'c2#1', 'p2', 1, 20);
    h.op('c1#1', { kind: 'ReleasePermit', scope: 'slots', permitId: 'p1' }, { kind: 'PermitReleased' });
    reserve(h, 'r1', 1, 10_000);
    h.at(30);
    reserve(h, 'r2', 1, 10_000);
    h.op('r#1', { kind: 'ConsumeReservation', reservationId: 'r1' }, { kind: 'ReservationUpdated', reservation: { scope: 'slots', reservationId: 'r1', owner: 'job', units: 1, state: 'Consumed', createdAt: 0, expiresAt: 10_000 } });
    permit(h, 'c3#1', 'p3', 1);
    expect(capacity(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('does not count a permit whose release may have landed before a grant with a reordered reply', () => {
    const h = new HistoryBuilder();
    h.op('admin#1', { kind: 'DefineCapacity', scope: 'slots', capacity: 1 }, { kind: 'Defined', capacity: 1 });
    permit(h, 'c1#1', 'p1', 1);
    h.invoke('c1#1', 'ReleasePermit', { kind: 'ReleasePermit', scope: 'slots', permitId: 'p1' });
    permit(h, 'c2#1', 'p2', 1);
    h.event('c1#1', 'ok', 'ReleasePermit', { kind: 'PermitReleased' });
    expect(capacity(h.build()).valid).toBe(true);
  });

  it('fails when a permit is granted beyond capacity (off by one)', () => {
    const h = new HistoryBuilder();
    h.op('admin#1', { kind: 'DefineCapacity', scope: 'slots', capacity: 2 }, { kind: 'Defined', capacity: 2 });
    const [, first] = permit(h, 'c1#1', 'p1', 1);
    const [, second] = permit(h, 'c2#1', 'p2', 1);
    const [third, thirdOk] = permit(h, 'c3#1', 'p3', 1);
    const verdict = capacity(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations).toHaveLength(1);
    expect(verdict.violations[0]).toMatchObject({ invariant: 'capacity', scope: 'slots', events: [first, second, third, thirdOk] });
    expect(verdict.violations[0]?.message).toContain('3 units in use over capacity 2');
  });

  it('fails an overbooked reservation', () => {
    const h = new HistoryBuilder();
    h.op('admin#1', { kind: 'DefineCapacity', scope: 'slots', capacity: 3 }, { kind: 'Defined', capacity: 3 });
    permit(h, 'c1#1', 'p1', 2);
    const [, overbooked] = reserve(h, 'r1', 2, 10_000);
    const verdict = capacity(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]?.events).toContain(overbooked);
  });

  it('fails a reservation consumed after it expired (§212)', () => {
    const h = new HistoryBuilder();
    const [, reserved] = reserve(h, 'r1', 1, 50);
    h.at(50);
    const [consume, consumed] = h.op('r#1', { kind: 'ConsumeReservation', reservationId: 'r1' }, {
      kind: 'ReservationUpdated', reservation: { scope: 'slots', reservationId: 'r1', owner: 'job', units: 1, state: 'Consumed', createdAt: 0, expiresAt: 50 },
    });
    const verdict = capacity(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]).toMatchObject({ events: [reserved, consume, consumed], scope: 'slots' });
  });
});
