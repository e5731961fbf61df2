// Leases, fencing, waiting and protected mutation in SQL (seed 000 §21–§36, §66–§92, §99–§114,
// §200–§206), in the check order of model/SEMANTICS.md. Each function runs inside one
// transaction (transaction.ts) and locks its scope before it reads anything it decides on.
// Acquire, Renew, Release and Mutate are decided in one place only, their PL/pgSQL functions of
// schema migration 2: normally called alone, as one autocommit statement (fast-path.ts); here, as
// one statement of a transaction (when the store is opened with `fastPath: false`, and for
// DispatchJob's lease, job-commands.ts).

import type {
  AcquireAllCommand,
  AcquireCommand,
  CancelWaitCommand,
  EnqueueCommand,
  ForceReleaseCommand,
  HandoffCommand,
  MutateCommand,
  ReleaseCommand,
  RenewCommand,
} from '../../model/commands.ts';
import { AGING_STEP_MS } from '../../model/constants.ts';
import type {
  AcquireAllResult,
  AcquireResult,
  CancelWaitResult,
  EnqueueResult,
  ForceReleaseResult,
  HandoffResult,
  Lease,
  MutateResult,
  RejectReason,
  ReleaseResult,
  RenewResult,
  Tombstone,
  Waiter,
} from '../../model/outcomes.ts';
import { isValidId, isValidPriority, isValidTtl } from '../../model/validation.ts';
import { observedRevision } from '../../model/force-release.ts';
import { endLease, liveLease, lockScope, nextToken, readScope, setLastToken, writeLease, type ScopeRows } from './scope-rows.ts';
import { callInTransaction } from './lease-functions.ts';
import { encodeText } from './text-codec.ts';
import type { Tx } from './transaction.ts';

export const rejected = (reason: RejectReason) => ({ kind: 'Rejected', reason }) as const;

export function blockedReason(rows: ScopeRows): RejectReason | null {
  if (rows.blocked === 'Quarantined') return 'quarantined';
  if (rows.blocked === 'BlockedForReconciliation') return 'blocked-for-reconciliation';
  return null;
}

function effectivePriority(waiter: Waiter, now: number): number {
  return waiter.priority + Math.floor((now - waiter.enqueuedAt) / AGING_STEP_MS);
}

/** Head order (§90–§92): greater effective priority first, then FIFO by seq. */
export function inHeadOrder(waiters: ReadonlyArray<Waiter>, now: number): Waiter[] {
  return [...waiters].sort((a, b) => effectivePriority(b, now) - effectivePriority(a, now) || a.seq - b.seq);
}

/** Acquire, Renew, Release and Mutate: their PL/pgSQL functions, as one statement of this transaction (lease-functions.ts). */
export const acquire = (tx: Tx, command: AcquireCommand) => callInTransaction(tx, command) as Promise<AcquireResult>;
export const renew = (tx: Tx, command: RenewCommand) => callInTransaction(tx, command) as Promise<RenewResult>;
export const release = (tx: Tx, command: ReleaseCommand) => callInTransaction(tx, command) as Promise<ReleaseResult>;
export const mutate = (tx: Tx, command: MutateCommand) => callInTransaction(tx, command) as Promise<MutateResult>;

/** The live lease with exactly this holder and token, after locking the scope. */
async function held(tx: Tx, scope: string, holder: string, token: number) {
  const [lock, rows] = await Promise.all([lockScope(tx, scope, false), readScope(tx, scope, false)]);
  if (!lock.exists) return { lock, now: 0, live: null, held: null };
  const now = await tx.now();
  const live = liveLease(rows, now);
  return { lock, now, live, held: live !== null && live.holder === holder && live.token === token ? live : null };
}

export async function handoff(tx: Tx, command: HandoffCommand): Promise<HandoffResult> {
  if (!isValidTtl(command.ttlMs)) return rejected('ttl-out-of-bounds');
  const found = await held(tx, command.scope, command.holder, command.token);
  if (found.held === null) return { kind: 'Stale', currentToken: found.live?.token ?? null };
  const old = found.held;
  endLease(tx, { scope: old.scope, holder: old.holder, token: old.token, endedAt: found.now, cause: 'handed-off' });
  const lease: Lease = {
    scope: command.scope,
    holder: command.newHolder,
    token: nextToken(found.lock),
    acquiredAt: found.now,
    expiresAt: found.now + command.ttlMs,
  };
  writeLease(tx, lease, null);
  return { kind: 'HandedOff', lease };
}

export async function forceRelease(tx: Tx, command: ForceReleaseCommand): Promise<ForceReleaseResult> {
  if (!command.privileged) return { kind: 'Denied', reason: 'not-privileged' };
  if (command.reason.trim() === '') return { kind: 'Denied', reason: 'reason-required' };
  const [lock, rows] = await Promise.all([lockScope(tx, command.scope, false), readScope(tx, command.scope, false)]);
  if (!lock.exists) return { kind: 'Stale', currentToken: null };
  const now = await tx.now();
  const live = liveLease(rows, now);
  if (live === null || live.token !== command.expectedToken || !observedRevision(live.expiresAt, command)) return { kind: 'Stale', currentToken: live?.token ?? null };
  const tombstone: Tombstone = {
    scope: live.scope,
    holder: live.holder,
    token: live.token,
    endedAt: now,
    cause: 'force-released',
    actor: command.actor,
    reason: command.reason,
  };
  endLease(tx, tombstone);
  // One token is burned: issued and never handed out, so the stale holder's is below every later one.
  const burned = nextToken(lock);
  setLastToken(tx, command.scope, burned);
  return { kind: 'ForceReleased', tombstone, nextToken: nextToken({ ...lock, lastToken: burned }) };
}

export async function enqueue(tx: Tx, command: EnqueueCommand): Promise<EnqueueResult> {
  const valid = isValidId(command.scope) && isValidId(command.waiterId) && isValidId(command.holder) && isValidPriority(command.priority);
  if (!valid) return rejected('invalid-argument');
  await lockScope(tx, command.scope, true);
  const now = await tx.now();
  // The seq counter row serializes every enqueue, which also makes the "queued anywhere" check exact.
  const [counter] = await tx.query<{ value: number; queued: boolean }>(
    `SELECT value, EXISTS (SELECT 1 FROM waiter WHERE waiter_id = $1) AS queued
       FROM counter WHERE name = 'waiter_seq' FOR UPDATE`,
    [encodeText(command.waiterId)],
  );
  if (counter!.queued) return rejected('invalid-argument');
  const seq = counter!.value + 1;
  await tx.query(
    `WITH c AS (UPDATE counter SET value = $6 WHERE name = 'waiter_seq')
     INSERT INTO waiter (waiter_id, scope, holder, priority, enqueued_at, seq) VALUES ($1, $2, $3, $4, $5, $6)`,
    [encodeText(command.waiterId), encodeText(command.scope), encodeText(command.holder), command.priority, now, seq],
  );
  const rows = await readScope(tx, command.scope, true);
  const position = inHeadOrder(rows.waiters, now).findIndex((w) => w.waiterId === command.waiterId) + 1;
  return { kind: 'Enqueued', position };
}

export async function cancelWait(tx: Tx, command: CancelWaitCommand): Promise<CancelWaitResult> {
  const lock = await lockScope(tx, command.scope, false);
  if (!lock.exists) return { kind: 'NotWaiting' };
  const deleted = await tx.query('DELETE FROM waiter WHERE scope = $1 AND waiter_id = $2 RETURNING seq', [
    encodeText(command.scope),
    encodeText(command.waiterId),
  ]);
  return deleted.length > 0 ? { kind: 'WaitCancelled' } : { kind: 'NotWaiting' };
}

/** Ascending by UTF-16 code units (§102), the one order in which every caller locks. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export async function acquireAll(tx: Tx, command: AcquireAllCommand): Promise<AcquireAllResult> {
  if (!isValidTtl(command.ttlMs)) return rejected('ttl-out-of-bounds');
  const ordered = [...command.scopes].sort(compareText);
  const distinct = ordered.every((scope, i) => i === 0 || scope !== ordered[i - 1]);
  if (ordered.length === 0 || !distinct || !ordered.every(isValidId) || !isValidId(command.holder)) return rejected('invalid-argument');
  const locks = [];
  for (const scope of ordered) locks.push(await lockScope(tx, scope, true));
  const now = await tx.now();
  for (const scope of ordered) {
    const rows = await readScope(tx, scope, true);
    const blocked = blockedReason(rows);
    if (blocked) return rejected(blocked);
    const live = liveLease(rows, now);
    if (live) return { kind: 'Busy', scope, holder: live.holder, token: live.token };
    if (rows.waiters.length > 0) return rejected('not-head-of-queue');
  }
  const leases: Lease[] = [];
  for (const lock of locks) {
    const lease: Lease = {
      scope: lock.scope,
      holder: command.holder,
      token: nextToken(lock),
      acquiredAt: now,
      expiresAt: now + command.ttlMs,
    };
    writeLease(tx, lease, null);
    leases.push(lease);
  }
  return { kind: 'AcquiredAll', leases };
}
