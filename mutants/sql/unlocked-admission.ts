// The admission check of capacity-commands.ts `admit`, without its scope lock: the bug the
// count-then-insert mutants share (capacity-count-then-insert, reserve-count-then-insert).
// Whether the scope exists, and then the units in use, are plain reads, so two admissions
// running at once count the same free units. Answers as `admit` does when run alone.

import { isValidTtl, isValidUnits } from '../../model/validation.ts';
import type { RejectReason } from '../../model/outcomes.ts';
import type { Admission } from '../../adapters/postgres/capacity-commands.ts';
import { encodeText } from '../../adapters/postgres/text-codec.ts';
import type { Tx } from '../../adapters/postgres/transaction.ts';

export async function unlockedAdmit(
  tx: Tx,
  request: { readonly scope: string; readonly ttlMs: number; readonly units: number },
  id: string,
  idsValid: boolean,
  idTaken: string,
): Promise<Admission | RejectReason> {
  if (!isValidTtl(request.ttlMs)) return 'ttl-out-of-bounds';
  const scope = encodeText(request.scope);
  // THE BUG: no scope lock before the reads.
  const [exists] = await tx.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM scope_counter WHERE scope = $1) AS found', [scope]);
  if (!exists!.found) return 'undefined-capacity';
  const now = await tx.now();
  const [row] = await tx.query<{ capacity: number | null; taken: boolean; blocked: string | null; in_use: number }>(
    `SELECT (SELECT capacity FROM capacity WHERE scope = $1) AS capacity,
            ${idTaken} AS taken,
            (SELECT state FROM blocked_scope WHERE scope = $1) AS blocked,
            ((SELECT coalesce(sum(units), 0) FROM permit WHERE scope = $1 AND expires_at > $3)
             + (SELECT coalesce(sum(units), 0) FROM reservation
                 WHERE scope = $1 AND state IN ('Pending', 'Active') AND expires_at > $3))::bigint AS in_use`,
    [scope, encodeText(id), now],
  );
  if (row!.capacity === null) return 'undefined-capacity';
  if (!isValidUnits(request.units) || !idsValid || row!.taken) return 'invalid-argument';
  if (row!.blocked === 'Quarantined') return 'quarantined';
  if (row!.blocked !== null) return 'blocked-for-reconciliation';
  return { capacity: row!.capacity, inUse: row!.in_use, now };
}
