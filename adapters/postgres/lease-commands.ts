// Leases, fencing, waiting and protected mutation in SQL (seed 000 §21–§36, §66–§92, §99–§114,
// §200–§206), in the check order of model/SEMANTICS.md. Each function runs inside one
// transaction (transaction.ts) and locks its scope before it reads anything it decides on.
// Acquire, Renew, Release and Mutate normally run as the PL/pgSQL functions of schema migration 2
// instead (fast-path.ts); the versions here run when the store is opened with `fastPath: false`,
// and both must decide alike.

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
  RoleGuard,
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
import { encodeText } from './text-codec.ts';
import type { Tx } from './transaction.ts';

type Fenced = { readonly kind: 'Fenced'; readonly role: string; readonly currentEpoch: number };

export const rejected = (reason: RejectReason) => ({ kind: 'Rejected', reason }) as const;

export function blockedReason(rows: ScopeRows): RejectReason | null {
  if (rows.blocked === 'Quarantined') return 'quarantined';
  if (rows.blocked === 'BlockedForReconciliation') return 'blocked-for-reconciliation';
  return null;
}

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

function effectivePriority(waiter: Waiter, now: number): number {
  return waiter.priority + Math.floor((now - waiter.enqueuedAt) / AGING_STEP_MS);
}

/** Head order (§90–§92): greater effective priority first, then FIFO by seq. */
export function inHeadOrder(waiters: ReadonlyArray<Waiter>, now: number): Waiter[] {
  return [...waiters].sort((a, b) => effectivePriority(b, now) - effectivePriority(a, now) || a.seq - b.seq);
}

export async function acquire(tx: Tx, command: AcquireCommand): Promise<AcquireResult> {
  const fenced = await checkGuard(tx, command.guard);
  if (fenced) return fenced;
  if (!isValidTtl(command.ttlMs)) return rejected('ttl-out-of-bounds');
  const idsValid = isValidId(command.scope) && isValidId(command.holder) && (command.waiterId === undefined || isValidId(command.waiterId));
  if (!idsValid) return rejected('invalid-argument');
  // Pipelined: the read is a statement of its own after the lock, so it sees every earlier commit.
  const [lock, rows] = await Promise.all([lockScope(tx, command.scope, true), readScope(tx, command.scope, true)]);
  const now = await tx.now();
  const decision = decideAcquire(rows, command, now);
  if (decision.kind !== 'Grant') return decision;
  const lease: Lease = { scope: command.scope, holder: command.holder, token: nextToken(lock), acquiredAt: now, expiresAt: now + command.ttlMs };
  writeLease(tx, lease, decision.dequeued);
  return { kind: 'Acquired', lease };
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

export async function renew(tx: Tx, command: RenewCommand): Promise<RenewResult> {
  if (!isValidTtl(command.ttlMs)) return rejected('ttl-out-of-bounds');
  const [lock, rows] = await Promise.all([lockScope(tx, command.scope, false), readScope(tx, command.scope, false)]);
  if (!lock.exists) return { kind: 'Stale', currentToken: null };
  const result = decideRenew(rows, command, await tx.now());
  if (result.kind === 'Renewed') tx.defer('UPDATE lease SET expires_at = $2 WHERE scope = $1', [encodeText(command.scope), result.lease.expiresAt]);
  return result;
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

/** The live lease with exactly this holder and token, after locking the scope. */
async function held(tx: Tx, scope: string, holder: string, token: number) {
  const [lock, rows] = await Promise.all([lockScope(tx, scope, false), readScope(tx, scope, false)]);
  if (!lock.exists) return { lock, now: 0, live: null, held: null };
  const now = await tx.now();
  const live = liveLease(rows, now);
  return { lock, now, live, held: live !== null && live.holder === holder && live.token === token ? live : null };
}

export async function release(tx: Tx, command: ReleaseCommand): Promise<ReleaseResult> {
  const found = await held(tx, command.scope, command.holder, command.token);
  if (found.held === null) return { kind: 'Stale', currentToken: found.live?.token ?? null };
  const lease = found.held;
  endLease(tx, { scope: lease.scope, holder: lease.holder, token: lease.token, endedAt: found.now, cause: 'released' });
  return { kind: 'Released', token: lease.token };
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

export async function mutate(tx: Tx, command: MutateCommand): Promise<MutateResult> {
  const fenced = await checkGuard(tx, command.guard);
  if (fenced) return fenced;
  const found = await held(tx, command.scope, command.holder, command.token);
  if (found.held === null) return { kind: 'StaleFence', currentToken: found.live?.token ?? null };
  const key = [encodeText(command.scope), encodeText(command.aggregate)];
  const rows = await tx.query<{ version: number }>('SELECT version FROM aggregate WHERE scope = $1 AND aggregate = $2', key);
  const currentVersion = rows[0]?.version ?? 0;
  if (currentVersion !== command.expectedVersion) return { kind: 'StaleVersion', currentVersion };
  const version = command.expectedVersion + 1;
  tx.defer(
    `INSERT INTO aggregate (scope, aggregate, version, last_token) VALUES ($1, $2, $3, $4)
     ON CONFLICT (scope, aggregate) DO UPDATE SET version = EXCLUDED.version, last_token = EXCLUDED.last_token`,
    [...key, version, command.token],
  );
  return { kind: 'Accepted', version, token: command.token };
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
