// accepted-writes (seed 000 §25–§30, §66–§70) for a store whose fences have no order
// (capabilities.fencing 'opaque' or 'none'): which of two leases is the newer is read from real
// time instead of from their tokens. A grant asked for after another grant's reply came back was
// decided after it; since the store granted it, the earlier lease had ended by then, and an ended
// lease never comes back. So a write under the earlier lease's fence is stale once the later
// grant was decided, and accepting it is a violation in two cases:
// - it was sent after the later grant's reply came back (that grant had been decided);
// - in version order, the order the store applied an aggregate's writes, it comes after a write
//   accepted under the later grant (that grant had been decided before that write was applied).
// One sweep per scope and one per aggregate. A write under a fence no grant of the history shows,
// or under the same fence as the later grant (a reuse, fencing-monotonic's finding), is not judged here.

import { groupBy, okOps, type StressHistory, type StressOp } from '../history.ts';
import type { Grant } from '../leases.ts';
import { named, violation, type StressViolation } from '../violation.ts';
import { ACCEPTED_WRITES } from './accepted-writes.ts';

type Write = StressOp & { command: Extract<StressOp['command'], { kind: 'Mutate' }> };

/** Whether `later` was asked for after `earlier`'s reply came back. */
const surelyAfter = (later: Grant, earlier: Grant): boolean => later.op.invokedAt > earlier.op.completedAt && later.token !== earlier.token;

const describe = (grant: Grant): string => `lease token ${grant.token} of ${grant.holder} (${named(grant.op)})`;

export function checkWritesByGrantOrder(history: StressHistory, grants: ReadonlyArray<Grant>): StressViolation[] {
  const byFence = new Map<string, Grant>();
  for (const grant of grants) if (!byFence.has(`${grant.scope}\u0000${grant.token}`)) byFence.set(`${grant.scope}\u0000${grant.token}`, grant);
  const writes = okOps(history, 'Mutate', 'Accepted').flatMap((op) => {
    const grant = byFence.get(`${op.command.scope}\u0000${op.command.token}`);
    return grant === undefined ? [] : [{ op: op as Write, grant }];
  });
  return [...sentAfterLaterGrant(writes, grants), ...appliedAfterLaterGrant(writes)];
}

function sentAfterLaterGrant(writes: ReadonlyArray<{ op: Write; grant: Grant }>, grants: ReadonlyArray<Grant>): StressViolation[] {
  const found: StressViolation[] = [];
  const grantsByScope = groupBy(grants, (g) => g.scope);
  for (const [scope, ofScope] of groupBy(writes, (w) => w.op.command.scope)) {
    const answered = [...(grantsByScope.get(scope) ?? [])].sort((a, b) => a.op.completedAt - b.op.completedAt);
    let done = 0;
    // Of the grants answered before the write was sent, the one asked for last.
    let latest: Grant | null = null;
    for (const write of [...ofScope].sort((a, b) => a.op.invokedAt - b.op.invokedAt)) {
      while (done < answered.length && answered[done]!.op.completedAt < write.op.invokedAt) {
        const grant = answered[done++]!;
        if (latest === null || grant.op.invokedAt > latest.op.invokedAt) latest = grant;
      }
      if (latest === null || !surelyAfter(latest, write.grant)) continue;
      const message = `scope ${scope}: a write under ${describe(write.grant)} was accepted (${named(write.op)}), sent after ${describe(latest)} had been granted, which was asked for after the first lease's grant came back`;
      found.push(violation(ACCEPTED_WRITES, scope, [write.grant.op, latest.op, write.op], message));
    }
  }
  return found;
}

function appliedAfterLaterGrant(writes: ReadonlyArray<{ op: Write; grant: Grant }>): StressViolation[] {
  const found: StressViolation[] = [];
  for (const [aggregate, ofAggregate] of groupBy(writes, (w) => `${w.op.command.scope}/${w.op.command.aggregate}`)) {
    const byVersion = [...ofAggregate].sort((a, b) => versionOf(a.op) - versionOf(b.op));
    // Of the grants of the writes applied so far, the one asked for last.
    let latest: { op: Write; grant: Grant } | null = null;
    for (const write of byVersion) {
      if (latest !== null && surelyAfter(latest.grant, write.grant)) {
        const message = `aggregate ${aggregate}: version ${versionOf(write.op)} under ${describe(write.grant)} (${named(write.op)}) was accepted after version ${versionOf(latest.op)} under ${describe(latest.grant)}, a lease asked for after the first one's grant came back`;
        found.push(violation(ACCEPTED_WRITES, aggregate, [write.grant.op, latest.op, write.op], message));
      }
      if (latest === null || write.grant.op.invokedAt > latest.grant.op.invokedAt) latest = write;
    }
  }
  return found;
}

const versionOf = (op: StressOp): number => (op.outcome?.kind === 'Accepted' ? op.outcome.version : 0);
