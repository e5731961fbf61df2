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

import type { AcquirePermitCommand } from '../../../model/commands.ts';
import type { AcquirePermitResult, Permit } from '../../../model/outcomes.ts';
import { isValidId, isValidTtl, isValidUnits } from '../../../model/validation.ts';
import { encodeText } from '../text-codec.ts';
import type { CommandBodies } from '../store.ts';
import type { Tx } from '../transaction.ts';

async function acquirePermit(tx: Tx, command: AcquirePermitCommand): Promise<AcquirePermitResult> {
  if (!isValidTtl(command.ttlMs)) return { kind: 'Rejected', reason: 'ttl-out-of-bounds' };
  const scope = encodeText(command.scope);
  // THE BUG: whether the scope exists, and then the units in use, are plain reads: no scope lock.
  const [exists] = await tx.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM scope_counter WHERE scope = $1) AS found', [scope]);
  if (!exists!.found) return { kind: 'Rejected', reason: 'undefined-capacity' };
  const now = await tx.now();
  const [row] = await tx.query<{ capacity: number | null; taken: boolean; blocked: string | null; in_use: number }>(
    `SELECT (SELECT capacity FROM capacity WHERE scope = $1) AS capacity,
            EXISTS (SELECT 1 FROM permit WHERE scope = $1 AND permit_id = $2 AND expires_at > $3) AS taken,
            (SELECT state FROM blocked_scope WHERE scope = $1) AS blocked,
            ((SELECT coalesce(sum(units), 0) FROM permit WHERE scope = $1 AND expires_at > $3)
             + (SELECT coalesce(sum(units), 0) FROM reservation
                 WHERE scope = $1 AND state IN ('Pending', 'Active') AND expires_at > $3))::bigint AS in_use`,
    [scope, encodeText(command.permitId), now],
  );
  if (row!.capacity === null) return { kind: 'Rejected', reason: 'undefined-capacity' };
  const idsValid = isValidId(command.permitId) && isValidId(command.holder);
  if (!isValidUnits(command.units) || !idsValid || row!.taken) return { kind: 'Rejected', reason: 'invalid-argument' };
  if (row!.blocked === 'Quarantined') return { kind: 'Rejected', reason: 'quarantined' };
  if (row!.blocked !== null) return { kind: 'Rejected', reason: 'blocked-for-reconciliation' };
  const capacity = row!.capacity;
  const inUse = row!.in_use;
  if (inUse + command.units > capacity) return { kind: 'Busy', inUse, capacity };
  const permit: Permit = { scope: command.scope, permitId: command.permitId, holder: command.holder, units: command.units, expiresAt: now + command.ttlMs };
  await tx.query(
    `INSERT INTO permit (scope, permit_id, holder, units, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (scope, permit_id) DO UPDATE SET holder = EXCLUDED.holder, units = EXCLUDED.units, expires_at = EXCLUDED.expires_at`,
    [scope, encodeText(permit.permitId), encodeText(permit.holder), permit.units, permit.expiresAt],
  );
  return { kind: 'Granted', permit };
}

/** The command bodies it replaces. */
export const capacityCountThenInsert: CommandBodies = { AcquirePermit: acquirePermit };
