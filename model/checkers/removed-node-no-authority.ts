// removed-node-no-authority (seed 001 §64–§65, §215, §244, §338 "Removed node cannot keep
// coordination authority"): once a node's removal is committed, no process of that node leads a
// term, advances a role epoch, creates a lease under a role guard or makes a guarded write that
// it invoked after the removal. (What it invoked before may still complete: the store fences it
// once a newer epoch is established, which fenced-stale-leader judges.)

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { guardOf, leaderChanges } from './leader-changes.ts';
import { leaseCreations } from './lease-creations.ts';
import { membershipRecords, nodeOfProcess } from './membership-changes.ts';
import { indicesOf, pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'removed-node-no-authority';

export function removedNodeNoAuthority(history: History): Verdict {
  const removedAt = new Map<string, number>();
  for (const record of membershipRecords(history)) {
    if (record.change === 'remove' && record.node !== null && !removedAt.has(record.node)) removedAt.set(record.node, record.event.index);
  }
  const violations: Violation[] = [];
  if (removedAt.size === 0) return verdictOf(violations);
  for (const election of leaderChanges(history)) {
    const node = nodeOfProcess(election.leader);
    const at = removedAt.get(node);
    if (at !== undefined && election.event.index > at) {
      violations.push(violation(INVARIANT, `${election.leader} led term ${election.term} (#${election.event.index}) after ${node} was removed (#${at})`, [at, election.event.index]));
    }
  }
  const operations = pairOperations(history);
  const judge = (op: Operation, what: string, scope: string): void => {
    const node = nodeOfProcess(op.process);
    const at = removedAt.get(node);
    if (at === undefined || op.invoke.index < at) return;
    violations.push(violation(INVARIANT, `${op.process} ${what} (#${op.invoke.index}) after ${node} was removed (#${at})`, [at, ...indicesOf(op)], scope));
  };
  for (const { op, command, outcome } of storeOps(operations, 'AdvanceRoleEpoch')) {
    if (outcome?.kind === 'RoleEpochAdvanced') judge(op, `advanced ${command.role} to epoch ${command.epoch}`, command.role);
  }
  for (const { op, guard, granted } of leaseCreations(operations)) {
    if (guard !== undefined && granted !== null) judge(op, `created a lease on ${granted.scope} under ${guard.role} epoch ${guard.epoch}`, granted.scope);
  }
  for (const { op, command, outcome } of storeOps(operations, 'Mutate')) {
    const guard = guardOf(command);
    if (guard !== undefined && outcome?.kind === 'Accepted') judge(op, `wrote ${command.aggregate} on ${command.scope} under ${guard.role} epoch ${guard.epoch}`, command.scope);
  }
  return verdictOf(violations);
}
