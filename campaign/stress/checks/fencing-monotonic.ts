// fencing-monotonic (seed 000 §24, §203–§204): the tokens of a scope are never issued twice and
// strictly increase with each new owner, both in store time (a grant at a later store time has a
// greater token) and in real time (a grant invoked after another grant's reply came back has a
// greater token). Sorted sweeps per scope: by store time, and by invocation against completion.
// Grants made at once are judged by real time only (see below). Fences without an order of their
// own (capabilities.fencing 'opaque') are judged on reuse alone.

import { groupBy } from '../history.ts';
import type { Grant } from '../leases.ts';
import { named, violation, type StressViolation } from '../violation.ts';
import { olderTokenAfter } from './older-token-after.ts';

export const FENCING_MONOTONIC = 'fencing-monotonic';

function describe(grant: Grant): string {
  return `token ${grant.token} to ${grant.holder} (${named(grant.op)}, store time ${grant.acquiredAt})`;
}

const concurrent = (a: Grant, b: Grant): boolean => a.op.invokedAt < b.op.completedAt && b.op.invokedAt < a.op.completedAt;

export function checkFencingMonotonic(grants: ReadonlyArray<Grant>, ordered = true): StressViolation[] {
  const found: StressViolation[] = [];
  for (const [scope, ofScope] of groupBy(grants, (g) => g.scope)) {
    // Never issued twice.
    const byToken = new Map<number, Grant>();
    for (const grant of ofScope) {
      const first = byToken.get(grant.token);
      if (first === undefined) byToken.set(grant.token, grant);
      else found.push(violation(FENCING_MONOTONIC, scope, [first.op, grant.op], `scope ${scope}: token ${grant.token} issued twice: ${describe(first)} and ${describe(grant)}`));
    }
    if (!ordered) continue;
    // Store time: every grant's token is above every token granted at an earlier store time.
    const byTime = [...ofScope].sort((a, b) => a.acquiredAt - b.acquiredAt || a.token - b.token);
    let highest: Grant | null = null;
    for (let i = 0; i < byTime.length; ) {
      let j = i;
      while (j < byTime.length && byTime[j]!.acquiredAt === byTime[i]!.acquiredAt) j++;
      const group = byTime.slice(i, j);
      for (const grant of group) {
        // Two grants that ran at once may be decided in one order and timed in the other by a
        // store that reads its clock before it takes its lock: only the real-time check judges them.
        if (highest !== null && grant.token < highest.token && !concurrent(highest, grant)) {
          found.push(violation(FENCING_MONOTONIC, scope, [highest.op, grant.op], `scope ${scope}: ${describe(grant)} after ${describe(highest)}: the token went down`));
        }
      }
      for (const grant of group) if (highest === null || grant.token > highest.token) highest = grant;
      i = j;
    }
    // Real time: a grant invoked after another's reply came back has a greater token.
    for (const [before, grant] of olderTokenAfter(ofScope)) {
      found.push(violation(FENCING_MONOTONIC, scope, [before.op, grant.op], `scope ${scope}: ${describe(grant)} was asked for after ${describe(before)} had been granted: the token went down`));
    }
  }
  return found;
}
