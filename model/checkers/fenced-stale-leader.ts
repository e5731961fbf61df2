// fenced-stale-leader (seed 001 §29, §90–§96, §262–§263, §284): no duplicate authoritative lease.
// Once the store has seen role epoch e (the new leader's AdvanceRoleEpoch, or a guard it
// accepted), no lease is created and no guarded write is accepted under an older epoch of that
// role. A guard is used only by the incarnation that won its epoch (§13, §304), and a lease
// created without any guard must come from the owner of the newest established epoch.

import type { History } from '../history.ts';
import { incarnationOfProcess } from '../node-incarnation.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { establishedBefore, establishedEpochs, guardOf, leaderChanges } from './leader-changes.ts';
import { leaseCreations } from './lease-creations.ts';
import { faultsBetween, indicesOf, pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'fenced-stale-leader';

interface Authoritative {
  readonly op: Operation;
  readonly what: string;
  readonly scope: string;
  readonly command: unknown;
}

function authoritativeOps(operations: ReadonlyArray<Operation>): ReadonlyArray<Authoritative> {
  const found: Authoritative[] = [];
  for (const { op, granted } of leaseCreations(operations)) {
    if (granted !== null) found.push({ op, what: 'lease creation', scope: granted.scope, command: op.invoke.value });
  }
  // An unguarded Mutate is an attempt finishing under its database lease (§76–§77): not judged here.
  for (const { op, command, outcome } of storeOps(operations, 'Mutate')) {
    if (outcome?.kind === 'Accepted' && command.guard !== undefined) found.push({ op, what: 'guarded write', scope: command.scope, command });
  }
  return found;
}

export function fencedStaleLeader(history: History): Verdict {
  const operations = pairOperations(history);
  const owners = new Map(leaderChanges(history).map((c) => [c.epoch, c.leader]));
  const established = establishedEpochs(operations);
  const violations: Violation[] = [];
  for (const { op, what, scope, command } of authoritativeOps(operations)) {
    const actor = incarnationOfProcess(op.process);
    const seen = establishedBefore(established, op.invoke.index);
    const guard = guardOf(command);
    if (guard !== undefined) {
      const current = seen.get(guard.role);
      if (current !== undefined && guard.epoch < current.epoch) {
        violations.push(
          violation(INVARIANT, `${what} on ${scope} by ${actor} under ${guard.role} epoch ${guard.epoch} (#${op.invoke.index}) after epoch ${current.epoch} of ${current.by} was established (#${current.at})${faultsBetween(history, current.at, op.invoke.index)}`, [current.at, ...indicesOf(op)], scope),
        );
      }
      const owner = owners.get(guard.epoch);
      if (owner !== undefined && owner !== actor) {
        violations.push(violation(INVARIANT, `${what} on ${scope} by ${actor} with a guard of epoch ${guard.epoch}, which ${owner} won (#${op.invoke.index})`, [...indicesOf(op)], scope));
      }
      continue;
    }
    for (const current of seen.values()) {
      const owner = owners.get(current.epoch) ?? current.by;
      if (owner === actor) continue;
      violations.push(
        violation(INVARIANT, `${what} on ${scope} by ${actor} without a guard (#${op.invoke.index}) while ${current.role} epoch ${current.epoch} of ${owner} was established (#${current.at})${faultsBetween(history, current.at, op.invoke.index)}`, [current.at, ...indicesOf(op)], scope),
      );
    }
  }
  return verdictOf(violations);
}
