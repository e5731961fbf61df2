// The Acquire and Renew rules written over the rows of scope-rows.ts, which the statement-race
// mutants of this folder are built from. The store itself does not use them: it decides these
// commands in their PL/pgSQL functions (migrations/002/). A mutant here keeps the rule and breaks
// only the locking around it, so whatever it gets wrong is the race it was written to have.

import type { AcquireCommand, RenewCommand, RoleGuard } from '../../model/commands.ts';
import type { AcquireResult, RenewResult } from '../../model/outcomes.ts';
import { blockedReason, inHeadOrder, rejected } from '../../adapters/postgres/lease-commands.ts';
import { liveLease, type ScopeRows } from '../../adapters/postgres/scope-rows.ts';
import { encodeText } from '../../adapters/postgres/text-codec.ts';
import type { Tx } from '../../adapters/postgres/transaction.ts';

type Fenced = { readonly kind: 'Fenced'; readonly role: string; readonly currentEpoch: number };

/**
 * Step 1 of Acquire and Mutate (seed 001 §92–§95): fenced if the guard's epoch is below the
 * stored one, else the stored epoch is raised to it (and stays raised whatever follows).
 * A stored epoch is never negative, so a negative guard is fenced without writing; so is one
 * that is not a finite number (model/SEMANTICS.md, clarification 15).
 */
export async function checkGuard(tx: Tx, guard: RoleGuard | undefined): Promise<Fenced | null> {
  if (guard === undefined) return null;
  const role = encodeText(guard.role);
  if (!Number.isFinite(guard.epoch) || guard.epoch < 0) {
    const rows = await tx.query<{ epoch: number }>('SELECT epoch FROM role_epoch WHERE role = $1 FOR SHARE', [role]);
    return { kind: 'Fenced', role: guard.role, currentEpoch: rows[0]?.epoch ?? 0 };
  }
  const [row] = await tx.query<{ epoch: number }>(
    `INSERT INTO role_epoch AS r (role, epoch) VALUES ($1, $2)
     ON CONFLICT (role) DO UPDATE SET epoch = r.epoch RETURNING r.epoch`,
    [role, guard.epoch],
  );
  const stored = row!.epoch;
  if (guard.epoch < stored) return { kind: 'Fenced', role: guard.role, currentEpoch: stored };
  if (guard.epoch > stored) await tx.query('UPDATE role_epoch SET epoch = $2 WHERE role = $1', [role, guard.epoch]);
  return null;
}

/** What Acquire decides on the scope's rows: the answer, or a grant and the waiter it dequeues. */
export function decideAcquire(rows: ScopeRows, command: AcquireCommand, now: number): AcquireResult | { readonly kind: 'Grant'; readonly dequeued: string | null } {
  const blocked = blockedReason(rows);
  if (blocked) return rejected(blocked);
  const live = liveLease(rows, now);
  if (live) return { kind: 'Busy', holder: live.holder, token: live.token, expiresAt: live.expiresAt };
  if (rows.waiters.length === 0) return command.waiterId === undefined ? { kind: 'Grant', dequeued: null } : rejected('unknown-waiter');
  if (command.waiterId === undefined) return rejected('not-head-of-queue');
  if (!rows.waiters.some((w) => w.waiterId === command.waiterId)) return rejected('unknown-waiter');
  if (inHeadOrder(rows.waiters, now)[0]!.waiterId !== command.waiterId) return rejected('not-head-of-queue');
  return { kind: 'Grant', dequeued: command.waiterId };
}

/** What Renew decides on the scope's lease row: the renewed lease (to be written), or the answer. */
export function decideRenew(rows: ScopeRows, command: RenewCommand, now: number): RenewResult {
  const row = rows.lease;
  if (row === null || row.token !== command.expectedToken || row.holder !== command.holder) {
    return { kind: 'Stale', currentToken: liveLease(rows, now)?.token ?? null };
  }
  if (now >= row.expiresAt) return { kind: 'Expired' };
  return { kind: 'Renewed', lease: { ...row, expiresAt: now + command.ttlMs } };
}
