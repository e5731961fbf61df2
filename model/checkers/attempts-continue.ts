// attempts-continue (seed 001 §76–§77, §276: existing valid job attempts continue according to DB
// lease semantics; §73: coordination strengthens the database's invariants, it does not replace
// them): a scheduled job's attempt runs under its database lease, not under its leader's role. An
// attempt that gives its job back (ReturnJob) must first have had the store's word on its lease:
// its protected write not Accepted, its lease confirmed with the store (a Renew, whose answer may
// be too old to act on after a pause), or a call left without an answer. An attempt that gives up
// before that, because its leader lost the role, breaks the rule. Judged where the role is the scheduler's: a release or deployment
// coordinator's promotion needs its guard (§78–§79), so its attempts stop with the role.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { indicesOf, pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'attempts-continue';

/** Whether, before `before`, the store refused the attempt's write, was asked to confirm its lease, or left a call unanswered. */
function heardBefore(calls: ReadonlyArray<Operation>, before: number): boolean {
  return calls.some((op) => {
    if (op.invoke.index >= before) return false;
    if (op.f === 'Renew' || op.completion === null || op.completion.type !== 'ok') return true;
    return op.f === 'Mutate' && (op.completion.value as { readonly kind?: unknown } | null)?.kind !== 'Accepted';
  });
}

export function attemptsContinue(history: History): Verdict {
  const operations = pairOperations(history);
  const roles = new Set(storeOps(operations, 'AdvanceRoleEpoch').map(({ command }) => command.role));
  if (roles.size !== 1 || !roles.has('scheduler')) return verdictOf([]);
  const byProcess = new Map<string, Operation[]>();
  for (const op of operations) byProcess.set(op.process, [...(byProcess.get(op.process) ?? []), op]);
  const violations: Violation[] = [];
  for (const { op, command } of storeOps(operations, 'ReturnJob')) {
    if (heardBefore(byProcess.get(op.process) ?? [], op.invoke.index)) continue;
    violations.push(violation(INVARIANT, `${op.process} gave job ${command.jobId} back (#${op.invoke.index}) before the store refused its write or was asked to confirm its lease: an attempt under a valid lease gave up its work`, indicesOf(op)));
  }
  return verdictOf(violations);
}
