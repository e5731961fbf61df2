// The per-scope lock and the reads that follow it. Everything a decision on a scope depends on is
// read after the scope row is locked, in a statement of its own, so under READ COMMITTED it sees
// every commit that came before the lock was granted.

import { TOKEN_EPOCH_STRIDE } from '../../model/constants.ts';
import type { Lease, Tombstone, Waiter } from '../../model/outcomes.ts';
import { decodeText, encodeText } from './text-codec.ts';
import { nowSql, type Tx } from './transaction.ts';

export interface ScopeLock {
  readonly scope: string;
  /** False when the scope has no counter row: it never had a lease, waiter, capacity or permit. */
  readonly exists: boolean;
  readonly lastToken: number;
  readonly recoveryEpoch: number;
}

/**
 * Lock `scope` for the rest of the transaction. `create` makes the counter row if it is missing
 * (commands that may write the scope); without it a missing scope stays missing and unlocked,
 * which is safe because such a command then finds nothing to change. The recovery epoch is read
 * here too: the transaction holds the recovery gate since BEGIN, so it cannot change under us.
 */
export async function lockScope(tx: Tx, scope: string, create: boolean): Promise<ScopeLock> {
  const params = [encodeText(scope), tx.virtualNow];
  if (create) {
    const [row] = await tx.query<{ last_token: number; epoch: number; now: number }>(
      `INSERT INTO scope_counter AS c (scope) VALUES ($1::text)
       ON CONFLICT (scope) DO UPDATE SET last_token = c.last_token
       RETURNING c.last_token, (SELECT epoch FROM recovery_epoch) AS epoch, ${nowSql(2)} AS now`,
      params,
    );
    tx.noteNow(row!.now);
    return { scope, exists: true, lastToken: row!.last_token, recoveryEpoch: row!.epoch };
  }
  // The outer select list is evaluated after the inner FOR UPDATE has its lock, so a database
  // clock read here is not older than the lock.
  const [row] = await tx.query<{ last_token: number | null; epoch: number; now: number }>(
    `SELECT c.last_token, (SELECT epoch FROM recovery_epoch) AS epoch, ${nowSql(2)} AS now
       FROM (SELECT 1) one
       LEFT JOIN (SELECT last_token FROM scope_counter WHERE scope = $1::text FOR UPDATE) c ON true`,
    params,
  );
  tx.noteNow(row!.now);
  return { scope, exists: row!.last_token !== null, lastToken: row!.last_token ?? 0, recoveryEpoch: row!.epoch };
}

/** The token the next issue on a locked scope gives (model/SEMANTICS.md "Fencing tokens"). */
export function nextToken(lock: ScopeLock): number {
  return Math.max(lock.lastToken, lock.recoveryEpoch * TOKEN_EPOCH_STRIDE) + 1;
}

export interface ScopeRows {
  /** The lease row, live or not. */
  readonly lease: Lease | null;
  readonly blocked: 'BlockedForReconciliation' | 'Quarantined' | null;
  readonly waiters: ReadonlyArray<Waiter>;
}

interface LeaseJson {
  holder: string;
  token: number;
  acquiredAt: number;
  expiresAt: number;
}

interface WaiterJson {
  waiterId: string;
  holder: string;
  priority: number;
  enqueuedAt: number;
  seq: number;
}

export async function readScope(tx: Tx, scope: string, withWaiters: boolean): Promise<ScopeRows> {
  const [row] = await tx.query<{ lease: LeaseJson | null; blocked: ScopeRows['blocked']; waiters: WaiterJson[] | null }>(
    `SELECT
       (SELECT json_build_object('holder', holder, 'token', token, 'acquiredAt', acquired_at, 'expiresAt', expires_at)
          FROM lease WHERE scope = $1) AS lease,
       (SELECT state FROM blocked_scope WHERE scope = $1) AS blocked,
       CASE WHEN $2::boolean THEN
         (SELECT coalesce(json_agg(json_build_object('waiterId', waiter_id, 'holder', holder, 'priority', priority,
                                                     'enqueuedAt', enqueued_at, 'seq', seq) ORDER BY seq), '[]'::json)
            FROM waiter WHERE scope = $1)
       END AS waiters`,
    [encodeText(scope), withWaiters],
  );
  const lease = row!.lease;
  return {
    lease:
      lease === null
        ? null
        : { scope, holder: decodeText(lease.holder), token: lease.token, acquiredAt: lease.acquiredAt, expiresAt: lease.expiresAt },
    blocked: row!.blocked,
    waiters: (row!.waiters ?? []).map((w) => ({
      scope,
      waiterId: decodeText(w.waiterId),
      holder: decodeText(w.holder),
      priority: w.priority,
      enqueuedAt: w.enqueuedAt,
      seq: w.seq,
    })),
  };
}

export function liveLease(rows: ScopeRows, now: number): Lease | null {
  return rows.lease !== null && now < rows.lease.expiresAt ? rows.lease : null;
}

/** Issue `token` on the scope and make `lease` its lease row; optionally dequeue a waiter. Sent with COMMIT. */
export function writeLease(tx: Tx, lease: Lease, dequeueWaiterId: string | null): void {
  tx.defer(
    `WITH t AS (UPDATE scope_counter SET last_token = $2 WHERE scope = $1),
          w AS (DELETE FROM waiter WHERE scope = $1 AND waiter_id = $6)
     INSERT INTO lease (scope, holder, token, acquired_at, expires_at) VALUES ($1, $3, $2, $4, $5)
     ON CONFLICT (scope) DO UPDATE SET holder = EXCLUDED.holder, token = EXCLUDED.token,
       acquired_at = EXCLUDED.acquired_at, expires_at = EXCLUDED.expires_at`,
    [
      encodeText(lease.scope),
      lease.token,
      encodeText(lease.holder),
      lease.acquiredAt,
      lease.expiresAt,
      dequeueWaiterId === null ? null : encodeText(dequeueWaiterId),
    ],
  );
}

/** Remove the lease row of a scope and append its tombstone, in one statement. Sent with COMMIT. */
export function endLease(tx: Tx, tombstone: Tombstone): void {
  tx.defer(
    `WITH d AS (DELETE FROM lease WHERE scope = $1)
     INSERT INTO tombstone (seq, scope, holder, token, ended_at, cause, actor, reason)
     VALUES (nextval('tombstone_seq'), $1, $2, $3, $4, $5, $6, $7)`,
    [
      encodeText(tombstone.scope),
      encodeText(tombstone.holder),
      tombstone.token,
      tombstone.endedAt,
      tombstone.cause,
      tombstone.actor === undefined ? null : encodeText(tombstone.actor),
      tombstone.reason === undefined ? null : encodeText(tombstone.reason),
    ],
  );
}

export function setLastToken(tx: Tx, scope: string, token: number): void {
  tx.defer('UPDATE scope_counter SET last_token = $2 WHERE scope = $1', [encodeText(scope), token]);
}
