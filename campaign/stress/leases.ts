// The leases a stress history shows: each grant (an Acquired or AcquiredAll outcome), how long it
// lasted in store time, and the Release that may have ended it early. Shared by the lease and
// fencing checks.

import type { Lease } from '../../model/outcomes.ts';
import { mayHaveApplied, okOps, type StressHistory, type StressOp } from './history.ts';

export interface Grant {
  readonly scope: string;
  readonly token: number;
  readonly holder: string;
  /** Store time of the grant. */
  readonly acquiredAt: number;
  /** Store time the lease ends unless released: the expiry of its last renewal, else its own. */
  expiresAt: number;
  /** The operation that granted it. */
  readonly op: StressOp;
  /** Renewals that extended it, in the holder's order. */
  readonly renewals: StressOp[];
  /** The earliest Release of exactly this lease that succeeded or whose outcome is unknown. */
  release: StressOp | null;
}

const keyOf = (scope: string, token: number, holder: string): string => `${scope}\u0000${token}\u0000${holder}`;

export function grantsOf(history: StressHistory): Grant[] {
  const grants: Grant[] = [];
  const byKey = new Map<string, Grant>();
  const add = (lease: Lease, op: StressOp): void => {
    const grant: Grant = { ...lease, op, renewals: [], release: null };
    grants.push(grant);
    // A token issued twice to one holder is a fencing violation of its own; renewals go to the first.
    const key = keyOf(lease.scope, lease.token, lease.holder);
    if (!byKey.has(key)) byKey.set(key, grant);
  };
  for (const op of okOps(history, 'Acquire', 'Acquired')) {
    if (op.outcome?.kind === 'Acquired') add(op.outcome.lease, op);
  }
  for (const op of okOps(history, 'AcquireAll', 'AcquiredAll')) {
    if (op.outcome?.kind === 'AcquiredAll') for (const lease of op.outcome.leases) add(lease, op);
  }
  // A renewal whose outcome is unknown may have extended the lease; ignoring it only shortens the
  // lease, so it can hide an overlap but never invent one. A holder renews one lease at a time,
  // so its last renewal (by completion) set the expiry.
  const renewals = okOps(history, 'Renew', 'Renewed').sort((a, b) => a.completedAt - b.completedAt);
  for (const op of renewals) {
    if (op.outcome?.kind !== 'Renewed') continue;
    const lease = op.outcome.lease;
    const grant = byKey.get(keyOf(lease.scope, lease.token, lease.holder));
    if (grant === undefined) continue;
    grant.renewals.push(op);
    grant.expiresAt = lease.expiresAt;
  }
  for (const op of mayHaveApplied(history, 'Release')) {
    if (op.status === 'ok' && op.outcome?.kind !== 'Released') continue;
    const grant = byKey.get(keyOf(op.command.scope, op.command.token, op.command.holder));
    if (grant !== undefined && (grant.release === null || op.invokedAt < grant.release.invokedAt)) grant.release = op;
  }
  return grants;
}
