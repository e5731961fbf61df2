// Semaphores, permits and reservations in SQL (seed 000 §37–§42, §93–§98, §207–§213). Units in
// use are summed after the scope lock, so two admissions on one scope can never both count the
// same free units: capacity is never exceeded, whatever the concurrency.

import type {
  AcquirePermitCommand,
  DefineCapacityCommand,
  ReleasePermitCommand,
  ReservationTransitionCommand,
  ReserveCommand,
} from '../../model/commands.ts';
import type {
  AcquirePermitResult,
  DefineCapacityResult,
  Permit,
  RejectReason,
  ReleasePermitResult,
  Reservation,
  ReservationState,
  ReservationTransitionResult,
  ReserveResult,
} from '../../model/outcomes.ts';
import { pendingReservation } from '../../model/reservation.ts';
import { isValidCapacity, isValidId, isValidTtl, isValidUnits } from '../../model/validation.ts';
import { lockScope } from './scope-rows.ts';
import { decodeText, encodeText } from './text-codec.ts';
import type { Tx } from './transaction.ts';

export async function defineCapacity(tx: Tx, command: DefineCapacityCommand): Promise<DefineCapacityResult> {
  if (!isValidId(command.scope) || !isValidCapacity(command.capacity)) return { kind: 'Rejected', reason: 'invalid-argument' };
  await lockScope(tx, command.scope, true);
  await tx.query(
    'INSERT INTO capacity (scope, capacity) VALUES ($1, $2) ON CONFLICT (scope) DO UPDATE SET capacity = EXCLUDED.capacity',
    [encodeText(command.scope), command.capacity],
  );
  return { kind: 'Defined', capacity: command.capacity };
}

export interface Admission {
  readonly capacity: number;
  readonly inUse: number;
  readonly now: number;
}

/**
 * The admission checks shared by AcquirePermit and Reserve, in rule-book order: ttl, capacity
 * defined, units and ids (and the id not taken), blocked. `idTaken` is SQL returning a boolean
 * with the scope as $1, the id as $2 and store time as $3.
 */
async function admit(
  tx: Tx,
  request: { readonly scope: string; readonly ttlMs: number; readonly units: number },
  id: string,
  idsValid: boolean,
  idTaken: string,
): Promise<Admission | RejectReason> {
  if (!isValidTtl(request.ttlMs)) return 'ttl-out-of-bounds';
  const lock = await lockScope(tx, request.scope, false);
  if (!lock.exists) return 'undefined-capacity';
  const now = await tx.now();
  const [row] = await tx.query<{ capacity: number | null; taken: boolean; blocked: string | null; in_use: number }>(
    `SELECT (SELECT capacity FROM capacity WHERE scope = $1) AS capacity,
            ${idTaken} AS taken,
            (SELECT state FROM blocked_scope WHERE scope = $1) AS blocked,
            ((SELECT coalesce(sum(units), 0) FROM permit WHERE scope = $1 AND expires_at > $3)
             + (SELECT coalesce(sum(units), 0) FROM reservation
                 WHERE scope = $1 AND state IN ('Pending', 'Active') AND expires_at > $3))::bigint AS in_use`,
    [encodeText(request.scope), encodeText(id), now],
  );
  if (row!.capacity === null) return 'undefined-capacity';
  if (!isValidUnits(request.units) || !idsValid || row!.taken) return 'invalid-argument';
  if (row!.blocked === 'Quarantined') return 'quarantined';
  if (row!.blocked !== null) return 'blocked-for-reconciliation';
  return { capacity: row!.capacity, inUse: row!.in_use, now };
}

export async function acquirePermit(tx: Tx, command: AcquirePermitCommand): Promise<AcquirePermitResult> {
  const idsValid = isValidId(command.permitId) && isValidId(command.holder);
  const taken = 'EXISTS (SELECT 1 FROM permit WHERE scope = $1 AND permit_id = $2 AND expires_at > $3)';
  const admission = await admit(tx, command, command.permitId, idsValid, taken);
  if (typeof admission === 'string') return { kind: 'Rejected', reason: admission };
  const { capacity, inUse, now } = admission;
  if (inUse + command.units > capacity) return { kind: 'Busy', inUse, capacity };
  const permit: Permit = { scope: command.scope, permitId: command.permitId, holder: command.holder, units: command.units, expiresAt: now + command.ttlMs };
  // An expired permit with the same id holds nothing and is replaced.
  await tx.query(
    `INSERT INTO permit (scope, permit_id, holder, units, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (scope, permit_id) DO UPDATE SET holder = EXCLUDED.holder, units = EXCLUDED.units, expires_at = EXCLUDED.expires_at`,
    [encodeText(permit.scope), encodeText(permit.permitId), encodeText(permit.holder), permit.units, permit.expiresAt],
  );
  return { kind: 'Granted', permit };
}

export async function releasePermit(tx: Tx, command: ReleasePermitCommand): Promise<ReleasePermitResult> {
  const lock = await lockScope(tx, command.scope, false);
  if (!lock.exists) return { kind: 'NotHeld' };
  const now = await tx.now();
  const deleted = await tx.query('DELETE FROM permit WHERE scope = $1 AND permit_id = $2 AND expires_at > $3 RETURNING units', [
    encodeText(command.scope),
    encodeText(command.permitId),
    now,
  ]);
  return deleted.length > 0 ? { kind: 'PermitReleased' } : { kind: 'NotHeld' };
}

export async function reserve(tx: Tx, command: ReserveCommand): Promise<ReserveResult> {
  const idsValid = isValidId(command.reservationId) && isValidId(command.owner);
  // Reservation ids are global: a transition names only the id.
  const taken = 'EXISTS (SELECT 1 FROM reservation WHERE reservation_id = $2)';
  const admission = await admit(tx, command, command.reservationId, idsValid, taken);
  if (typeof admission === 'string') return { kind: 'Rejected', reason: admission };
  const { capacity, inUse, now } = admission;
  if (inUse + command.units > capacity) return { kind: 'Overbooked', inUse, capacity };
  const reservation = pendingReservation(command, now);
  await tx.query(
    `INSERT INTO reservation (reservation_id, scope, owner, units, state, created_at, expires_at)
     VALUES ($1, $2, $3, $4, 'Pending', $5, $6)`,
    [encodeText(reservation.reservationId), encodeText(reservation.scope), encodeText(reservation.owner), reservation.units, now, reservation.expiresAt],
  );
  return { kind: 'Reserved', reservation };
}

const TARGET: Readonly<Record<ReservationTransitionCommand['kind'], { readonly from: ReadonlyArray<ReservationState>; readonly to: ReservationState }>> = {
  ActivateReservation: { from: ['Pending'], to: 'Active' },
  ConsumeReservation: { from: ['Pending', 'Active'], to: 'Consumed' },
  ReleaseReservation: { from: ['Pending', 'Active'], to: 'Released' },
  FailReservation: { from: ['Pending', 'Active'], to: 'Failed' },
};

interface ReservationRow {
  reservation_id: string;
  scope: string;
  owner: string;
  units: number;
  state: ReservationState;
  created_at: number;
  expires_at: number;
}

export function reservationOf(row: ReservationRow, now: number): Reservation {
  const open = row.state === 'Pending' || row.state === 'Active';
  return {
    scope: decodeText(row.scope),
    reservationId: decodeText(row.reservation_id),
    owner: decodeText(row.owner),
    units: row.units,
    // A Pending or Active reservation past its expiry reads as Expired (§211–§212).
    state: open && now >= row.expires_at ? 'Expired' : row.state,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export async function transitionReservation(tx: Tx, command: ReservationTransitionCommand): Promise<ReservationTransitionResult> {
  const id = encodeText(command.reservationId);
  const located = await tx.query<{ scope: string }>('SELECT scope FROM reservation WHERE reservation_id = $1', [id]);
  if (located.length === 0) return { kind: 'NotFound' };
  // The scope of a reservation never changes; lock it so capacity sums see transitions in order.
  await lockScope(tx, decodeText(located[0]!.scope), false);
  const now = await tx.now();
  const [row] = await tx.query<ReservationRow>('SELECT * FROM reservation WHERE reservation_id = $1', [id]);
  const current = reservationOf(row!, now);
  if (current.state === 'Expired') return { kind: 'ReservationExpired' };
  const rule = TARGET[command.kind];
  if (!rule.from.includes(current.state)) return { kind: 'InvalidState', state: current.state };
  await tx.query('UPDATE reservation SET state = $2 WHERE reservation_id = $1', [id, rule.to]);
  return { kind: 'ReservationUpdated', reservation: { ...current, state: rule.to } };
}
