// renew-check-then-extend — seed 000 §31–§33 (bounded leases, explicit renewal), §78 ("One active
// durable owner"), §282 (renewal race test). Source: the renewal race of §282, written as a check
// and an update that do not bind to the lease checked (the shape of seed 002's key-only races).
//
// The real Renew locks the scope's counter row, then checks that the caller's lease is still the
// scope's lease, live, and extends it, under that lock. This one checks in one unlocked statement
// and extends the scope's lease row in the next, by scope alone. Run alone, it decides as the real
// store does. When the caller's lease expires between the check and the update and another holder
// acquires the scope in that gap, the caller is told Renewed (its old token, a fresh expiry) while
// the other holder owns the scope, and the update moves the other holder's expiry too.

import type { RenewCommand } from '../../model/commands.ts';
import type { RenewResult } from '../../model/outcomes.ts';
import { isValidTtl } from '../../model/validation.ts';
import { decideRenew } from './lease-rules.ts';
import { readScope } from '../../adapters/postgres/scope-rows.ts';
import { encodeText } from '../../adapters/postgres/text-codec.ts';
import type { CommandBodies } from '../../adapters/postgres/store.ts';
import type { Tx } from '../../adapters/postgres/transaction.ts';

async function renew(tx: Tx, command: RenewCommand): Promise<RenewResult> {
  if (!isValidTtl(command.ttlMs)) return { kind: 'Rejected', reason: 'ttl-out-of-bounds' };
  // THE BUG: no scope lock; the check reads the lease row as it is now ...
  const rows = await readScope(tx, command.scope, false);
  const result = decideRenew(rows, command, await tx.now());
  // ... and the update, a statement of its own, extends whatever lease row the scope has by then.
  if (result.kind === 'Renewed') tx.defer('UPDATE lease SET expires_at = $2 WHERE scope = $1', [encodeText(command.scope), result.lease.expiresAt]);
  return result;
}

/** The command bodies it replaces. */
export const renewCheckThenExtend: CommandBodies = { Renew: renew };
