// token-from-unlocked-read — seed 000 §24 ("FencingToken: Monotonically increasing per scope"),
// §77–§78 ("Acquire Lease: read current scope, verify expired/unowned, increment epoch";
// "Unique Scope Constraint: One active durable owner"), §203–§204 ("Never reuse old epoch").
// Source: the issue that asked for real concurrency ("a PostgreSQL store whose acquire reads the
// scope's token counter without a row lock passes sweep --adapter postgres"), and seed 003's
// "lock tokens that were not unique per acquisition".
//
// The real Acquire locks the scope's counter row (SELECT ... FOR UPDATE, scope-rows.ts lockScope)
// before it reads the lease and the counter. This one makes sure the counter row exists and then
// reads the counter and the lease with plain SELECTs. Run alone, it decides exactly as the real
// store does. Two acquires of a free scope running at once both see it free and the same counter
// value, both compute the same next token and both commit (the second upsert of the lease row
// waits for the first and overwrites it): two owners at once, one token issued twice.

import type { AcquireCommand } from '../../model/commands.ts';
import type { AcquireResult, Lease } from '../../model/outcomes.ts';
import { isValidId, isValidTtl } from '../../model/validation.ts';
import { rejected } from '../../adapters/postgres/lease-commands.ts';
import { checkGuard, decideAcquire } from './lease-rules.ts';
import { nextToken, readScope, writeLease } from '../../adapters/postgres/scope-rows.ts';
import { encodeText } from '../../adapters/postgres/text-codec.ts';
import type { CommandBodies } from '../../adapters/postgres/store.ts';
import type { Tx } from '../../adapters/postgres/transaction.ts';

async function acquire(tx: Tx, command: AcquireCommand): Promise<AcquireResult> {
  const fenced = await checkGuard(tx, command.guard);
  if (fenced) return fenced;
  if (!isValidTtl(command.ttlMs)) return rejected('ttl-out-of-bounds');
  const idsValid = isValidId(command.scope) && isValidId(command.holder) && (command.waiterId === undefined || isValidId(command.waiterId));
  if (!idsValid) return rejected('invalid-argument');
  const scope = encodeText(command.scope);
  // THE BUG: the counter row is created if missing but never locked; the counter and the lease
  // are plain reads, so a concurrent acquire of the same scope reads the same values.
  await tx.query('INSERT INTO scope_counter (scope) VALUES ($1) ON CONFLICT (scope) DO NOTHING', [scope]);
  const [[counter], rows] = await Promise.all([
    tx.query<{ last_token: number; epoch: number }>(
      'SELECT last_token, (SELECT epoch FROM recovery_epoch) AS epoch FROM scope_counter WHERE scope = $1',
      [scope],
    ),
    readScope(tx, command.scope, true),
  ]);
  const now = await tx.now();
  const decision = decideAcquire(rows, command, now);
  if (decision.kind !== 'Grant') return decision;
  const token = nextToken({ scope: command.scope, exists: true, lastToken: counter!.last_token, recoveryEpoch: counter!.epoch });
  const lease: Lease = { scope: command.scope, holder: command.holder, token, acquiredAt: now, expiresAt: now + command.ttlMs };
  // The counter row is written (and so locked) only now, after the decision; first, so that the
  // writes take their locks in the real store's order and do not deadlock with it.
  await tx.query('UPDATE scope_counter SET last_token = $2 WHERE scope = $1', [scope, token]);
  writeLease(tx, lease, decision.dequeued);
  return { kind: 'Acquired', lease };
}

/** The command bodies it replaces. */
export const tokenFromUnlockedRead: CommandBodies = { Acquire: acquire };
