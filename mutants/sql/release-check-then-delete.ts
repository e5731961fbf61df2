// release-check-then-delete — seed 000 §78 ("Unique Scope Constraint: One active durable owner"),
// §25–§30 (a stale holder must not act on the scope once a newer token exists), §280 (lease
// expiry test). Source: seed 002, whose key-only force release destroyed a newer holder's lease
// (a check and a delete that did not bind to the lease observed), and the issue's "a release that
// checks then deletes in two statements".
//
// The real Release locks the scope's counter row, then reads the lease and, when the caller holds
// it, deletes the scope's lease row (scope-rows.ts endLease) under that lock. This one checks in
// one statement without the lock and deletes by scope in the next: the delete does not repeat the
// holder and token it checked. Run alone, it decides as the real store does. When the caller's
// lease expires between the check and the delete and another holder acquires the scope in that
// gap, the delete removes the new holder's lease: a third holder then acquires the scope while
// the second still owns it.

import type { ReleaseCommand } from '../../model/commands.ts';
import type { ReleaseResult } from '../../model/outcomes.ts';
import { endLease, liveLease, readScope } from '../../adapters/postgres/scope-rows.ts';
import type { CommandBodies } from '../../adapters/postgres/store.ts';
import type { Tx } from '../../adapters/postgres/transaction.ts';

async function release(tx: Tx, command: ReleaseCommand): Promise<ReleaseResult> {
  // THE BUG: no scope lock; the check reads the lease row as it is now ...
  const rows = await readScope(tx, command.scope, false);
  const now = await tx.now();
  const live = liveLease(rows, now);
  if (live === null || live.holder !== command.holder || live.token !== command.token) return { kind: 'Stale', currentToken: live?.token ?? null };
  // ... and the delete, a statement of its own, removes whatever lease row the scope has then.
  endLease(tx, { scope: live.scope, holder: live.holder, token: live.token, endedAt: now, cause: 'released' });
  return { kind: 'Released', token: live.token };
}

/** The command bodies it replaces. */
export const releaseCheckThenDelete: CommandBodies = { Release: release };
