// accepted-writes (seed 000 §25–§30, §66–§70): an Accepted answer made the expected version plus
// one under the write's own token, and no write is accepted on an aggregate under a token older
// than one already accepted there. Per aggregate, three sweeps over its Accepted mutations:
// each version is accepted once (two writes accepted at one version: one of them was lost); in
// version order, which is the order the store applied them, tokens never go down; and a write
// invoked after another's reply came back never carries an older token. And per scope, a write
// invoked after the reply of a grant with a newer token is never accepted (tokens of a scope only
// increase, so the older one can never be current again), whether or not the newer holder wrote.
// Without ordered fences (capabilities.fencing 'opaque' or 'none') the two token-order sweeps are
// left to writes-by-grant-order.ts, which reads which lease is newer from real time.

import { groupBy, okOps, type StressHistory, type StressOp } from '../history.ts';
import type { Grant } from '../leases.ts';
import { named, violation, type StressViolation } from '../violation.ts';
import { olderTokenAfter } from './older-token-after.ts';

export const ACCEPTED_WRITES = 'accepted-writes';

interface Accepted {
  readonly op: StressOp;
  readonly version: number;
  readonly token: number;
}

const describe = (write: Accepted): string => `version ${write.version} under token ${write.token} (${named(write.op)})`;

export function checkAcceptedWrites(history: StressHistory, ordered = true): StressViolation[] {
  const found: StressViolation[] = [];
  const writes = okOps(history, 'Mutate', 'Accepted').map((op) => ({
    op,
    version: op.outcome?.kind === 'Accepted' ? op.outcome.version : 0,
    token: op.command.token,
    aggregate: `${op.command.scope}/${op.command.aggregate}`,
  }));
  for (const write of writes) {
    const { command, outcome } = write.op;
    // An Accepted answer names the version its write made (the expected one plus one) and the write's own token.
    if (outcome?.kind === 'Accepted' && (outcome.version !== command.expectedVersion + 1 || outcome.token !== command.token)) {
      found.push(violation(ACCEPTED_WRITES, write.aggregate, [write.op], `aggregate ${write.aggregate}: a write expecting version ${command.expectedVersion} under token ${command.token} was answered Accepted with version ${outcome.version} under token ${outcome.token} (${named(write.op)})`));
    }
  }
  for (const [aggregate, ofAggregate] of groupBy(writes, (w) => w.aggregate)) {
    const byVersion = [...ofAggregate].sort((a, b) => a.version - b.version || a.op.completedAt - b.op.completedAt);
    let highest: Accepted | null = null;
    for (let i = 0; i < byVersion.length; i++) {
      const write = byVersion[i]!;
      const previous = byVersion[i - 1];
      if (previous !== undefined && previous.version === write.version) {
        found.push(violation(ACCEPTED_WRITES, aggregate, [previous.op, write.op], `aggregate ${aggregate}: two writes accepted at ${describe(previous)} and ${describe(write)}`));
      }
      if (ordered && highest !== null && write.token < highest.token) {
        found.push(violation(ACCEPTED_WRITES, aggregate, [highest.op, write.op], `aggregate ${aggregate}: ${describe(write)} accepted after ${describe(highest)}`));
      }
      if (highest === null || write.token > highest.token) highest = write;
    }
    for (const [before, write] of ordered ? olderTokenAfter(ofAggregate) : []) {
      found.push(violation(ACCEPTED_WRITES, aggregate, [before.op, write.op], `aggregate ${aggregate}: ${describe(write)} was sent after ${describe(before)} had been accepted`));
    }
  }
  return found;
}

/** Writes accepted under a token older than one whose grant had already been answered when the write was sent. */
export function checkWritesAfterNewerGrant(history: StressHistory, grants: ReadonlyArray<Grant>): StressViolation[] {
  const found: StressViolation[] = [];
  const grantsByScope = groupBy(grants, (g) => g.scope);
  for (const [scope, writes] of groupBy(okOps(history, 'Mutate', 'Accepted'), (op) => op.command.scope)) {
    const answered = [...(grantsByScope.get(scope) ?? [])].sort((a, b) => a.op.completedAt - b.op.completedAt);
    const byInvoke = [...writes].sort((a, b) => a.invokedAt - b.invokedAt);
    let done = 0;
    let newest: Grant | null = null;
    for (const write of byInvoke) {
      while (done < answered.length && answered[done]!.op.completedAt < write.invokedAt) {
        const grant = answered[done++]!;
        if (newest === null || grant.token > newest.token) newest = grant;
      }
      if (newest !== null && write.command.token < newest.token) {
        found.push(
          violation(
            ACCEPTED_WRITES,
            scope,
            [newest.op, write],
            `scope ${scope}: a write under token ${write.command.token} (${named(write)}) was accepted, sent after lease token ${newest.token} of ${newest.holder} (${named(newest.op)}) had been granted`,
          ),
        );
      }
    }
  }
  return found;
}
