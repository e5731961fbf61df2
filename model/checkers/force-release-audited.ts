// force-release-audited (seed 000 §200–§206, §220–§222, §290): every ForceReleased outcome came
// from a privileged command with a reason and the exact token of the lease it removed, left a
// tombstone carrying actor and reason, and removed the lease the history shows as current — with
// the expiry the command expected, when it named one (seed 002 022d1f8). Whether
// the lease was fit to be forced at all is force-release-judged's question.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { leaseGrants, type LeaseGrant } from './lease-grants.ts';
import { endOf, indicesOf, pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'force-release-audited';

export function forceReleaseAudited(history: History): Verdict {
  const grants = leaseGrants(history, false);
  const renewals = leaseGrants(history, true).filter((grant) => grant.what === 'Renewed');
  const violations: Violation[] = [];
  const operations = pairOperations(history);
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
    if (outcome.nextToken <= tombstone.token) problems.push(`nextToken ${outcome.nextToken} is not above the removed token`);
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
    const moved = movedExpiry(renewals, op, command.expectedExpiresAt, tombstone.scope, tombstone.token);
    if (moved !== undefined) {
      problems.push(`the lease had expiry ${moved.lease.expiresAt} from a renewal completed at #${moved.index} before the force was sent, not the expected ${command.expectedExpiresAt}`);
      related.push(moved.index);
    }
    if (problems.length === 0) continue;
    violations.push(violation(INVARIANT, `scope ${command.scope}: ForceReleased by ${command.actor} (#${endOf(op)}) but ${problems.join('; ')}`, [...related, ...indicesOf(op)], command.scope));
  }
  return verdictOf(violations);
}

/**
 * A renewal of the forced token that completed before the force was sent and moved the lease past
 * the expiry the force expected: the lease at the force was no longer the one observed.
 */
function movedExpiry(renewals: ReadonlyArray<LeaseGrant>, force: Operation, expected: number | undefined, scope: string, token: number): LeaseGrant | undefined {
  if (expected === undefined) return undefined;
  return renewals.find((grant) => grant.lease.scope === scope && grant.lease.token === token && grant.index < force.invoke.index && grant.lease.expiresAt > expected);
}
