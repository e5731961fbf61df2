// lease-exclusive (seed 000 §78, "One active durable owner"): no two leases of one scope overlap
// in store time. A lease lasts from its grant to the expiry its last renewal set. Two leases that
// overlap are a violation unless one of them was released by a Release invoked before the later
// of the two grants' replies came back: whichever grant came second was then decided while the
// other lease was granted, not released and, at its own store time, not expired. This trusts store
// time to follow the order of the store's decisions (a clock read while it decides: the
// database's, or a store that decides atomically); for a store handed a clock it may read before
// it takes its locks, see lease-surely-held.ts.
//
// A sorted sweep per scope: grants in order of store time, each compared only with the earlier
// grants still running at its start (in a correct store, the ones released early and no more).

import { groupBy } from '../history.ts';
import type { Grant } from '../leases.ts';
import { named, violation, type StressViolation } from '../violation.ts';

export const LEASE_EXCLUSIVE = 'lease-exclusive';

const releasedBefore = (grant: Grant, time: number): boolean => grant.release !== null && grant.release.invokedAt < time;

export function checkLeaseExclusive(grants: ReadonlyArray<Grant>): StressViolation[] {
  const found: StressViolation[] = [];
  for (const [scope, ofScope] of groupBy(grants, (g) => g.scope)) {
    const ordered = [...ofScope].sort((a, b) => a.acquiredAt - b.acquiredAt || a.token - b.token);
    let running: Grant[] = [];
    for (const grant of ordered) {
      running = running.filter((earlier) => earlier.expiresAt > grant.acquiredAt);
      for (const earlier of running) {
        const lastReply = Math.max(earlier.op.completedAt, grant.op.completedAt);
        // Two grants at one store time are in no known order: either may have followed the other's release.
        if (releasedBefore(earlier, lastReply) || (grant.acquiredAt === earlier.acquiredAt && releasedBefore(grant, lastReply))) continue;
        found.push(
          violation(
            LEASE_EXCLUSIVE,
            scope,
            [earlier.op, grant.op],
            `scope ${scope}: lease token ${grant.token} of ${grant.holder} (${named(grant.op)}) granted at store time ${grant.acquiredAt}, ` +
              `while lease token ${earlier.token} of ${earlier.holder} (${named(earlier.op)}) ran until ${earlier.expiresAt} and was not released`,
          ),
        );
      }
      running.push(grant);
    }
  }
  return found;
}
