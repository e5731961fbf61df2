// reserve-count-then-insert — seed 000 §93–§97 (capacity counted over permits and reservations),
// §72 ("SELECT ... FOR UPDATE where appropriate"). Source: the count-then-insert admission race,
// here in the reservation path, which capacity-count-then-insert does not touch.
//
// The real Reserve locks the scope's counter row, then sums the units held by permits and open
// reservations and inserts the reservation under that lock (capacity-commands.ts). This one sums
// and inserts without the lock. Run alone, it decides as the real store does. Two reservations
// running at once both count the same free units and both insert: more units are reserved than
// the scope has.

import type { ReserveCommand } from '../../../model/commands.ts';
import type { ReserveResult } from '../../../model/outcomes.ts';
import { pendingReservation } from '../../../model/reservation.ts';
import { isValidId, isValidTtl, isValidUnits } from '../../../model/validation.ts';
import { encodeText } from '../text-codec.ts';
import type { CommandBodies } from '../store.ts';
import type { Tx } from '../transaction.ts';

async function reserve(tx: Tx, command: ReserveCommand): Promise<ReserveResult> {
  if (!isValidTtl(command.ttlMs)) return { kind: 'Rejected', reason: 'ttl-out-of-bounds' };
  const scope = encodeText(command.scope);
  // THE BUG: whether the scope exists, and then the units in use, are plain reads: no scope lock.
  const [exists] = await tx.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM scope_counter WHERE scope = $1) AS found', [scope]);
  if (!exists!.found) return { kind: 'Rejected', reason: 'undefined-capacity' };
  const now = await tx.now();
  const [row] = await tx.query<{ capacity: number | null; taken: boolean; blocked: string | null; in_use: number }>(
    `SELECT (SELECT capacity FROM capacity WHERE scope = $1) AS capacity,
            EXISTS (SELECT 1 FROM reservation WHERE reservation_id = $2) AS taken,
            (SELECT state FROM blocked_scope WHERE scope = $1) AS blocked,
            ((SELECT coalesce(sum(units), 0) FROM permit WHERE scope = $1 AND expires_at > $3)
             + (SELECT coalesce(sum(units), 0) FROM reservation
                 WHERE scope = $1 AND state IN ('Pending', 'Active') AND expires_at > $3))::bigint AS in_use`,
    [scope, encodeText(command.reservationId), now],
  );
  if (row!.capacity === null) return { kind: 'Rejected', reason: 'undefined-capacity' };
  const idsValid = isValidId(command.reservationId) && isValidId(command.owner);
  if (!isValidUnits(command.units) || !idsValid || row!.taken) return { kind: 'Rejected', reason: 'invalid-argument' };
  if (row!.blocked === 'Quarantined') return { kind: 'Rejected', reason: 'quarantined' };
  if (row!.blocked !== null) return { kind: 'Rejected', reason: 'blocked-for-reconciliation' };
  if (row!.in_use + command.units > row!.capacity) return { kind: 'Overbooked', inUse: row!.in_use, capacity: row!.capacity };
  const reservation = pendingReservation(command, now);
  await tx.query(
    `INSERT INTO reservation (reservation_id, scope, owner, units, state, created_at, expires_at)
     VALUES ($1, $2, $3, $4, 'Pending', $5, $6)`,
    [encodeText(reservation.reservationId), encodeText(reservation.scope), encodeText(reservation.owner), reservation.units, now, reservation.expiresAt],
  );
  return { kind: 'Reserved', reservation };
}

/** The command bodies it replaces. */
export const reserveCountThenInsert: CommandBodies = { Reserve: reserve };
