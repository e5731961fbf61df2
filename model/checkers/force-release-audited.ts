// force-release-audited (seed 000 §200–§206, §220–§222, §290): every ForceReleased outcome came
// from a privileged command with a reason and the exact token of the lease it removed, left a
// tombstone carrying actor and reason, burned a token (§203–§204), and removed the lease the history shows as current — with
// the expiry the command expected, when it named one (seed 002 022d1f8). Whether
// the lease was fit to be forced at all is force-release-judged's question.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { leaseGrants, type LeaseGrant } from './lease-grants.ts';
import { endOf, indicesOf, isTruth, numberField, pairOperations, storeOps } from './operations.ts';
import { verdictOf, violation } from './violations.ts';
import { fencingKind } from './fencing-kind.ts';

const INVARIANT = 'force-release-audited';

export function forceReleaseAudited(history: History): Verdict {
  const grants = leaseGrants(history, false);
  const withRenewals = leaseGrants(history, true);
  const violations: Violation[] = [];
  const operations = pairOperations(history);
  const ownSemantics = history.some((e) => isTruth(e) && e.f === 'own-semantics');
  const integers = fencingKind(history) === 'integer';
  for (const { op, command, outcome } of storeOps(operations, 'ForceRelease')) {
    if (outcome?.kind !== 'ForceReleased') continue;
    const { tombstone } = outcome;
    const problems: string[] = [];
    if (command.privileged !== true) problems.push('the command was not privileged');
    if (command.reason.trim() === '') problems.push('the command gave no reason');
    if (tombstone.token !== command.expectedToken) problems.push(`it removed token ${tombstone.token}, not the expected token ${command.expectedToken}`);
    if (tombstone.scope !== command.scope) problems.push(`the tombstone names scope ${tombstone.scope}`);
    if (tombstone.cause !== 'force-released') problems.push(`the tombstone cause is ${tombstone.cause}`);
    if (tombstone.actor === undefined || tombstone.actor.trim() === '') problems.push('the tombstone has no actor');
    else if (tombstone.actor !== command.actor) problems.push(`the tombstone actor ${tombstone.actor} is not ${command.actor}`);
    if (tombstone.reason === undefined || tombstone.reason.trim() === '') problems.push('the tombstone has no reason');
    // The rule book burns one token (issued and never handed out): the next issue is at least two
    // above the removed one. A store with semantics of its own need only go above it (§203–§204).
    if (!integers) {
      // Fences of the store's own: no next fence was promised.
    } else if (outcome.nextToken <= tombstone.token) problems.push(`nextToken ${outcome.nextToken} is not above the removed token ${tombstone.token}`);
    else if (!ownSemantics && outcome.nextToken < tombstone.token + 2) problems.push(`nextToken ${outcome.nextToken} is not at least two above the removed token ${tombstone.token}: no token was burned`);
    const related: number[] = [];
    const before = grants.filter((grant) => grant.lease.scope === command.scope && grant.index < op.invoke.index);
    const owner = before.find((grant) => grant.lease.token === tombstone.token);
    if (owner !== undefined && owner.lease.holder !== tombstone.holder) {
      problems.push(`token ${tombstone.token} belonged to ${owner.lease.holder}, not ${tombstone.holder}`);
      related.push(owner.index);
    }
    const newer = before.find((grant) => grant.lease.token > tombstone.token);
    if (newer !== undefined) {
      problems.push(`token ${newer.lease.token} was issued at #${newer.index}, so token ${tombstone.token} was not the current lease`);
      related.push(newer.index);
    }
    const moved = movedExpiry(withRenewals, command.expectedExpiresAt, tombstone.scope, tombstone.token, tombstone.endedAt);
    if (moved !== undefined) {
      problems.push(`a renewal (#${moved.index}) had moved the lease's expiry to ${moved.lease.expiresAt} before the force ended it, so it was not the lease with the expected expiry ${command.expectedExpiresAt}`);
      related.push(moved.index);
    }
    if (problems.length === 0) continue;
    violations.push(violation(INVARIANT, `scope ${command.scope}: ForceReleased by ${command.actor} (#${endOf(op)}) but ${problems.join('; ')}`, [...related, ...indicesOf(op)], command.scope));
  }
  return verdictOf(violations);
}

/**
 * A renewal the store applied (by its own clock: `expiresAt − ttlMs`) after the grant or renewal
 * that produced the expiry the force expected, and before the force ended the lease: the lease it
 * removed was no longer the one observed. Unknown when no answer the history shows produced that
 * expiry (its reply was lost): then nothing is claimed.
 */
function movedExpiry(grants: ReadonlyArray<LeaseGrant>, expected: number | undefined, scope: string, token: number, endedAt: number): LeaseGrant | undefined {
  if (expected === undefined) return undefined;
  const ofLease = grants.filter((grant) => grant.lease.scope === scope && grant.lease.token === token);
  const producer = ofLease.find((grant) => grant.lease.expiresAt === expected);
  if (producer === undefined) return undefined;
  const since = storeTime(producer);
  return ofLease.find((grant) => grant.what === 'Renewed' && storeTime(grant) > since && storeTime(grant) < endedAt);
}

/** When the store applied a grant or renewal, on its own clock. */
function storeTime(grant: LeaseGrant): number {
  return grant.lease.expiresAt - (numberField(grant.op.invoke.value, 'ttlMs') ?? grant.lease.expiresAt - grant.lease.acquiredAt);
}
