// lease-exclusive judged in real time alone, for a store whose clock the history cannot trust to
// follow the order of its decisions: one handed a clock (not the database's), which it may read
// before it takes its locks, so that a grant that waited for a lock is stamped with a time from
// before the grants and releases it waited for, and two leases seem to overlap in store time that
// never did. (The capacity check needs no such variant: a permit is never replaced by another.)
//
// A grant is surely held, in wall-clock time, from its reply until its ttl after it was sent
// (the store decided after the call was sent, and its clock does not run faster than the wall
// clock), or, after renewals, until the last renewal's ttl after that renewal was sent; and only
// until a release of it was sent. Two leases of one scope surely held at one instant are a
// violation whatever the store's clock says. A sorted sweep over these intervals per scope.

import { groupBy, type StressOp } from '../history.ts';
import type { Grant } from '../leases.ts';
import { named, violation, type StressViolation } from '../violation.ts';
import { LEASE_EXCLUSIVE } from './lease-exclusive.ts';

interface Interval<T> {
  readonly item: T;
  readonly from: number;
  readonly until: number;
}

function ttlOf(op: StressOp): number {
  const command = op.command as { ttlMs?: number };
  return command.ttlMs ?? 0;
}

function surely<T>(item: T, op: StressOp, ttlEnd: number, end: StressOp | null): Interval<T> | null {
  // Empty when the reply came back after the ttl ran out: nothing is sure then.
  const until = end === null ? ttlEnd : Math.min(ttlEnd, end.invokedAt);
  return until > op.completedAt ? { item, from: op.completedAt, until } : null;
}

/** Calls `over` with each interval and the earlier ones still running at its start. */
function sweep<T>(intervals: ReadonlyArray<Interval<T>>, over: (running: ReadonlyArray<Interval<T>>, next: Interval<T>) => void): void {
  const ordered = [...intervals].sort((a, b) => a.from - b.from);
  let running: Interval<T>[] = [];
  for (const next of ordered) {
    running = running.filter((earlier) => earlier.until > next.from);
    over(running, next);
    running.push(next);
  }
}

const wall = (ms: number): string => new Date(ms).toISOString().slice(11, 23);

export function checkLeasesSurelyHeld(grants: ReadonlyArray<Grant>): StressViolation[] {
  const found: StressViolation[] = [];
  for (const [scope, ofScope] of groupBy(grants, (g) => g.scope)) {
    const intervals = ofScope.flatMap((grant) => {
      const last = grant.renewals[grant.renewals.length - 1];
      // Store time is in whole milliseconds (the handed clock floors the wall clock): a lease
      // granted in the millisecond a call was sent may expire up to 1 ms before its ttl after it.
      const ttlEnd = last === undefined ? Math.floor(grant.op.invokedAt) + ttlOf(grant.op) : Math.floor(last.invokedAt) + ttlOf(last);
      return surely(grant, grant.op, ttlEnd, grant.release) ?? [];
    });
    sweep(intervals, (running, next) => {
      for (const earlier of running) {
        const [a, b] = [earlier.item, next.item];
        found.push(
          violation(
            LEASE_EXCLUSIVE,
            scope,
            [a.op, b.op],
            `scope ${scope}: lease token ${a.token} of ${a.holder} (${named(a.op)}) and lease token ${b.token} of ${b.holder} (${named(b.op)}) were both held at ${wall(next.from)} (wall clock)`,
          ),
        );
      }
    });
  }
  return found;
}
