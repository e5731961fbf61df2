// reserve-count-then-insert — seed 000 §93–§97 (capacity counted over permits and reservations),
// §72 ("SELECT ... FOR UPDATE where appropriate"). Source: the count-then-insert admission race,
// here in the reservation path, which capacity-count-then-insert does not touch.
//
// The real Reserve locks the scope's counter row, then sums the units held by permits and open
// reservations and inserts the reservation under that lock (capacity-commands.ts). This one sums
// and inserts without the lock. Run alone, it decides as the real store does. Two reservations
// running at once both count the same free units and both insert: more units are reserved than
// the scope has.

import type { ReserveCommand } from '../../model/commands.ts';
import type { ReserveResult } from '../../model/outcomes.ts';
import { pendingReservation } from '../../model/reservation.ts';
import { isValidId } from '../../model/validation.ts';
import { encodeText } from '../../adapters/postgres/text-codec.ts';
import type { CommandBodies } from '../../adapters/postgres/store.ts';
import type { Tx } from '../../adapters/postgres/transaction.ts';
import { unlockedAdmit } from './unlocked-admission.ts';

async function reserve(tx: Tx, command: ReserveCommand): Promise<ReserveResult> {
  const idsValid = isValidId(command.reservationId) && isValidId(command.owner);
  const taken = 'EXISTS (SELECT 1 FROM reservation WHERE reservation_id = $2)';
  // THE BUG: the admission reads without the scope lock (unlocked-admission.ts).
  const admission = await unlockedAdmit(tx, command, command.reservationId, idsValid, taken);
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

/** The command bodies it replaces. */
export const reserveCountThenInsert: CommandBodies = { Reserve: reserve };
