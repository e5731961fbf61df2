// seed 000 §93–§98, §207–§212, §292: a refusal for lack of capacity needs units in use that,
// with the request, exceed the capacity; units returned and still counted leaked.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../../model/commands.ts';
import { capacityRefusal } from '../../../model/checkers/capacity-refusal.ts';
import { HistoryBuilder, failing } from './history-builder.ts';

const reserve = (id: string, units = 1, ttlMs = 1_000): Command => ({ kind: 'Reserve', scope: 'dev', reservationId: id, owner: 'o', units, ttlMs });
const reserved = (id: string, at: number, units = 1, ttlMs = 1_000) => ({
  kind: 'Reserved',
  reservation: { reservationId: id, scope: 'dev', owner: 'o', units, state: 'Pending', createdAt: at, expiresAt: at + ttlMs },
});
const overbooked = (inUse: number) => ({ kind: 'Overbooked', inUse, capacity: 2 });

function defined(h: HistoryBuilder): void {
  h.op('admin', { kind: 'DefineCapacity', scope: 'dev', capacity: 2 }, { kind: 'Defined', capacity: 2 });
}

describe('capacity-refusal', () => {
  it('passes a refusal that the units in use explain, and one raced by a release still in flight', () => {
    const h = new HistoryBuilder();
    defined(h);
    h.op('c1#1', reserve('r1'), reserved('r1', 2));
    h.op('c2#1', reserve('r2'), reserved('r2', 4));
    h.op('c3#1', reserve('r3'), overbooked(2));
    h.invoke('c1#1', 'ReleaseReservation', { kind: 'ReleaseReservation', reservationId: 'r1' });
    h.op('c3#1', reserve('r4'), overbooked(2));
    h.event('c1#1', 'ok', 'ReleaseReservation', { kind: 'ReservationUpdated' });
    expect(capacityRefusal(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('counts a grant whose outcome is unknown as in use', () => {
    const h = new HistoryBuilder();
    defined(h);
    h.op('c1#1', reserve('r1', 1), reserved('r1', 2, 1));
    h.invoke('c2#1', 'Reserve', reserve('r2'));
    h.event('c2#1', 'info', 'Reserve', { error: 'timeout' });
    h.op('c3#1', reserve('r3'), overbooked(2));
    expect(capacityRefusal(h.build()).valid).toBe(true);
  });

  it('fails a refusal after the units were released, or after they expired', () => {
    const h = new HistoryBuilder();
    defined(h);
    h.op('c1#1', reserve('r1', 2), reserved('r1', 2, 2));
    h.op('c1#1', { kind: 'ReleaseReservation', reservationId: 'r1' }, { kind: 'ReservationUpdated' });
    h.op('c2#1', reserve('r2'), overbooked(2));
    h.op('c3#1', reserve('r3', 2, 100), reserved('r3', 7, 2, 100));
    h.at(500);
    h.op('c4#1', reserve('r4'), overbooked(2));
    const violations = failing(capacityRefusal(h.build()), 2);
    expect(violations[0]!.message).toBe('scope dev: a request for 1u (#7) was answered Overbooked (in use 2, capacity 2), but at most 0u may have been in use of capacity 2; may be in use: none');
  });

  it('takes the smallest capacity a define in flight may have set, and judges nothing after a restore', () => {
    const h = new HistoryBuilder();
    defined(h);
    h.invoke('admin', 'DefineCapacity', { kind: 'DefineCapacity', scope: 'dev', capacity: 1 });
    h.op('c1#1', reserve('r1'), reserved('r1', 2));
    h.op('c2#1', reserve('r2'), overbooked(1));
    h.event('admin', 'ok', 'DefineCapacity', { kind: 'Defined', capacity: 1 });
    h.op('c1#1', { kind: 'ReleaseReservation', reservationId: 'r1' }, { kind: 'ReservationUpdated' });
    h.fault('db-restore', { imageTime: 3, blockedScopes: [] });
    h.op('c3#1', reserve('r3'), overbooked(1));
    expect(capacityRefusal(h.build()).valid).toBe(true);
  });

  it('of two defines that overlapped, takes the smaller: either may have taken effect last', () => {
    const overlapped = (first: number, second: number) => {
      const h = new HistoryBuilder();
      h.invoke('admin', 'DefineCapacity', { kind: 'DefineCapacity', scope: 'dev', capacity: first });
      h.invoke('ops', 'DefineCapacity', { kind: 'DefineCapacity', scope: 'dev', capacity: second });
      h.event('ops', 'ok', 'DefineCapacity', { kind: 'Defined', capacity: second });
      h.event('admin', 'ok', 'DefineCapacity', { kind: 'Defined', capacity: first });
      h.op('c1#1', reserve('r1'), reserved('r1', 2));
      h.op('c2#1', reserve('r2'), overbooked(1));
      return capacityRefusal(h.build());
    };
    // The define that finished last set 5, the other 1: the refusal at 1u in use is explained.
    expect(overlapped(5, 1).valid).toBe(true);
    // Both set 5: 1u in use and 1u asked never exceed it.
    failing(overlapped(5, 5), 1);
  });

  it('judges permits alike: a Busy after the permit was released', () => {
    const h = new HistoryBuilder();
    defined(h);
    h.op('c1#1', { kind: 'AcquirePermit', scope: 'dev', permitId: 'p1', holder: 'c1', units: 2, ttlMs: 1_000 }, { kind: 'Granted', permit: { scope: 'dev', permitId: 'p1', holder: 'c1', units: 2, expiresAt: 1_002 } });
    h.op('c1#1', { kind: 'ReleasePermit', scope: 'dev', permitId: 'p1' }, { kind: 'PermitReleased' });
    h.op('c2#1', { kind: 'AcquirePermit', scope: 'dev', permitId: 'p2', holder: 'c2', units: 1, ttlMs: 1_000 }, { kind: 'Busy', inUse: 2, capacity: 2 });
    failing(capacityRefusal(h.build()), 1);
  });
});
