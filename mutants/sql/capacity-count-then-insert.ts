// capacity-count-then-insert — seed 000 §93–§97 ("Semaphore": a resource with capacity > 1; its
// permits), §72 ("Postgres Baseline: SELECT ... FOR UPDATE where appropriate"), §293 (semaphore
// test). Source: the "a capacity count read then inserted without a lock", the classic
// count-then-insert admission race.
//
// The real AcquirePermit locks the scope's counter row, then sums the units in use and inserts the
// permit under that lock (capacity-commands.ts), so two admissions never count the same free
// units. This one sums and inserts without the lock. Run alone, it decides as the real store does.
// Two admissions running at once both count the same free units and both insert: the semaphore
// holds more units than its capacity.

import type { AcquirePermitCommand } from '../../model/commands.ts';
import type { AcquirePermitResult, Permit } from '../../model/outcomes.ts';
import { isValidId } from '../../model/validation.ts';
import { encodeText } from '../../adapters/postgres/text-codec.ts';
import type { CommandBodies } from '../../adapters/postgres/store.ts';
import type { Tx } from '../../adapters/postgres/transaction.ts';
import { unlockedAdmit } from './unlocked-admission.ts';

async function acquirePermit(tx: Tx, command: AcquirePermitCommand): Promise<AcquirePermitResult> {
  const idsValid = isValidId(command.permitId) && isValidId(command.holder);
  const taken = 'EXISTS (SELECT 1 FROM permit WHERE scope = $1 AND permit_id = $2 AND expires_at > $3)';
  // THE BUG: the admission reads without the scope lock (unlocked-admission.ts).
  const admission = await unlockedAdmit(tx, command, command.permitId, idsValid, taken);
  if (typeof admission === 'string') return { kind: 'Rejected', reason: admission };
  const { capacity, inUse, now } = admission;
  if (inUse + command.units > capacity) return { kind: 'Busy', inUse, capacity };
  const permit: Permit = { scope: command.scope, permitId: command.permitId, holder: command.holder, units: command.units, expiresAt: now + command.ttlMs };
  await tx.query(
    `INSERT INTO permit (scope, permit_id, holder, units, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (scope, permit_id) DO UPDATE SET holder = EXCLUDED.holder, units = EXCLUDED.units, expires_at = EXCLUDED.expires_at`,
    [encodeText(permit.scope), encodeText(permit.permitId), encodeText(permit.holder), permit.units, permit.expiresAt],
  );
  return { kind: 'Granted', permit };
}

/** The command bodies it replaces. */
export const capacityCountThenInsert: CommandBodies = { AcquirePermit: acquirePermit };
