// force-release-judged (seed 000 §202 "only after reconciliation/manual proof"; seed 002 PR #53,
// 022d1f8, ebe1ab8, b1a49c3): a force release removes only a lease that showed no sign of life. No
// grant or renewal of the forced token was requested within two renewal intervals (⅔ of its TTL)
// before the force, or while the force was in flight. A holder renews every third of its TTL, so
// no judgement made from observation can call such a lease stalled: a force that removes one was
// bound to a lease other than the one it judged (key-only), was not atomic with its validation
// (a renewal in between), or took a fresh lease for an orphan. This is the forcing process's rule,
// not the store's: a store answers any well-formed force of a live lease.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { leaseGrants, type LeaseGrant } from './lease-grants.ts';
import { endOf, indicesOf, numberField, pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'force-release-judged';

export function forceReleaseJudged(history: History): Verdict {
  const grants = leaseGrants(history, true);
  const violations: Violation[] = [];
  for (const { op, command, outcome } of storeOps(pairOperations(history), 'ForceRelease')) {
    if (outcome?.kind !== 'ForceReleased') continue;
    const { tombstone } = outcome;
    const live = liveSign(grants, op, tombstone.scope, tombstone.token);
    if (live === undefined) continue;
    const ago = op.invoke.time - live.op.invoke.time;
    const when = ago >= 0 ? `${ago} ms before the force (under ⅔ of its ${ttlOf(live)} ms TTL)` : 'while the force was in flight';
    const message = `scope ${command.scope}: ForceReleased by ${command.actor} (#${endOf(op)}) a live lease: ${live.what} of token ${tombstone.token} by ${live.op.process} was requested at t=${live.op.invoke.time}, ${when}`;
    violations.push(violation(INVARIANT, message, [live.op.invoke.index, ...indicesOf(op)], command.scope));
  }
  return verdictOf(violations);
}

/** A grant or renewal of the forced token requested within ⅔ of its TTL before the force, or while the force was in flight. */
function liveSign(grants: ReadonlyArray<LeaseGrant>, force: Operation, scope: string, token: number): LeaseGrant | undefined {
  const end = force.completion?.index ?? Number.POSITIVE_INFINITY;
  return grants.find((grant) => {
    if (grant.lease.scope !== scope || grant.lease.token !== token || grant.op.invoke.index > end) return false;
    return force.invoke.time - grant.op.invoke.time < (ttlOf(grant) * 2) / 3;
  });
}

/** The TTL the grant asked for (every granting command carries one). */
function ttlOf(grant: LeaseGrant): number {
  return numberField(grant.op.invoke.value, 'ttlMs') ?? grant.lease.expiresAt - grant.lease.acquiredAt;
}
