// restore-forgets (seed 000 §272–§276, §297; the rule book's AdvanceRecoveryEpoch): what a restore
// or failover took away, and what the recovery after it invalidated, is gone, and no later answer
// speaks of it. A Busy answer (Acquire, AcquireAll, DispatchJob on its job's scope) names a live
// lease by its scope, holder and token; such an answer to a request invoked after
// - a recovery (AdvanceRecoveryEpoch answered RecoveryAdvanced) came back names no lease whose
//   every grant came back before that recovery was invoked: the recovery removed every live lease;
// - a simulated restore or failover (a fault that names the `imageTime` of the image put in place)
//   names no lease that only grants invoked after the image was taken, and answered before the
//   fault, gave: the image does not hold it.
// A store that answers so answers from state it no longer has (a cache that outlived the database
// it copied). Grants are Acquired, AcquiredAll, HandedOff and JobDispatched answers. A lease no
// answered grant names is no-phantom-lease's question; where a grant whose outcome is unknown on
// that scope may have taken effect after the fault, the image rule does not judge (tokens can
// repeat after a restore without a recovery epoch).

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { leaseGrants, type LeaseGrant } from './lease-grants.ts';
import { asFields, endOf, faultsOf, indicesOf, pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'restore-forgets';

/** A Busy answer: the lease it names and the request it answered. */
interface Named {
  readonly op: Operation;
  readonly scope: string;
  readonly holder: string;
  readonly token: number;
}

function busyAnswers(operations: ReadonlyArray<Operation>): ReadonlyArray<Named> {
  const named: Named[] = [];
  for (const { op, command, outcome } of storeOps(operations, 'Acquire')) {
    if (outcome?.kind === 'Busy') named.push({ op, scope: command.scope, holder: outcome.holder, token: outcome.token });
  }
  for (const { op, outcome } of storeOps(operations, 'AcquireAll')) {
    if (outcome?.kind === 'Busy') named.push({ op, scope: outcome.scope, holder: outcome.holder, token: outcome.token });
  }
  // A dispatch takes its job's scope, as the store answered a submission of that job.
  const scopeOf = new Map<string, string>();
  for (const { outcome } of storeOps(operations, 'SubmitJob')) if (outcome?.kind === 'JobSubmitted' || outcome?.kind === 'JobExists') scopeOf.set(outcome.job.jobId, outcome.job.scope);
  for (const { op, command, outcome } of storeOps(operations, 'DispatchJob')) {
    const scope = scopeOf.get(command.jobId);
    if (outcome?.kind === 'Busy' && scope !== undefined) named.push({ op, scope, holder: outcome.holder, token: outcome.token });
  }
  return named;
}

function grantsOf(grants: ReadonlyArray<LeaseGrant>, named: Named): ReadonlyArray<LeaseGrant> {
  return grants.filter((g) => g.lease.scope === named.scope && g.lease.token === named.token && g.lease.holder === named.holder);
}

/** Grant requests on `scope` whose outcome is unknown and that were invoked before `before` (an index). */
function unknownGrantOn(operations: ReadonlyArray<Operation>, scope: string, before: number): boolean {
  return operations.some((op) => {
    if (op.invoke.index >= before || (op.completion !== null && op.completion.type !== 'info')) return false;
    if (op.f === 'Acquire' || op.f === 'Handoff') return (op.invoke.value as { scope?: unknown }).scope === scope;
    if (op.f === 'AcquireAll') return ((op.invoke.value as { scopes?: unknown }).scopes as ReadonlyArray<string> | undefined)?.includes(scope) === true;
    return op.f === 'DispatchJob';
  });
}

/** A restore or failover that put an image in place: the time the image was taken. */
interface Replacement {
  readonly index: number;
  readonly f: string;
  readonly imageTime: number;
}

function replacementsOf(history: History): ReadonlyArray<Replacement> {
  const found: Replacement[] = [];
  for (const fault of faultsOf(history, ['db-restore', 'db-failover'])) {
    const imageTime = asFields(fault.value)?.['imageTime'];
    if (asFields(fault.value)?.skipped !== true && typeof imageTime === 'number') found.push({ index: fault.index, f: fault.f, imageTime });
  }
  return found;
}

/** The last replacement recorded before history index `before`: the state an answer after it comes from. */
function lastBefore(replacements: ReadonlyArray<Replacement>, before: number): Replacement | undefined {
  return replacements.filter((r) => r.index < before).at(-1);
}

function afterRecoveries(operations: ReadonlyArray<Operation>, grants: ReadonlyArray<LeaseGrant>, answers: ReadonlyArray<Named>, replacements: ReadonlyArray<Replacement>, judged: Set<Operation>): Violation[] {
  const violations: Violation[] = [];
  const recoveries = storeOps(operations, 'AdvanceRecoveryEpoch').filter(({ op, outcome }) => outcome?.kind === 'RecoveryAdvanced' && op.completion !== null);
  for (const answer of answers) {
    const given = grantsOf(grants, answer);
    if (given.length === 0) continue;
    // A restore after the recovery may have put back what the recovery removed: a recovery speaks
    // for the state an answer came from when it came after the last replacement before the
    // answer, or was over before that replacement's image was taken (the image holds it).
    const last = lastBefore(replacements, answer.op.invoke.index);
    const reflected = (op: Operation): boolean => last === undefined || op.invoke.index > last.index || op.completion!.time < last.imageTime;
    const recovery = recoveries.find(({ op }) => reflected(op) && op.completion!.index < answer.op.invoke.index && given.every((g) => g.index < op.invoke.index));
    if (recovery === undefined) continue;
    judged.add(answer.op);
    violations.push(
      violation(
        INVARIANT,
        `scope ${answer.scope}: ${answer.op.f} invoked at #${answer.op.invoke.index} was answered Busy by ${answer.holder} with token ${answer.token}, granted at #${given.at(-1)!.index}, a lease the recovery at #${recovery.op.completion!.index} removed`,
        [given.at(-1)!.index, ...indicesOf(recovery.op), ...indicesOf(answer.op)],
        answer.scope,
      ),
    );
  }
  return violations;
}

/** Each answer judged against the last image put in place before it: an earlier image was replaced, and says nothing of the state the answer came from. */
function afterImages(operations: ReadonlyArray<Operation>, grants: ReadonlyArray<LeaseGrant>, answers: ReadonlyArray<Named>, replacements: ReadonlyArray<Replacement>, judged: Set<Operation>): Violation[] {
  const violations: Violation[] = [];
  for (const answer of answers) {
    const fault = lastBefore(replacements, answer.op.invoke.index);
    if (fault === undefined || judged.has(answer.op)) continue;
    const given = grantsOf(grants, answer);
    const lost = given.length > 0 && given.every((g) => g.op.invoke.time > fault.imageTime && endOf(g.op) < fault.index);
    if (!lost || unknownGrantOn(operations, answer.scope, endOf(answer.op))) continue;
    judged.add(answer.op);
    violations.push(
      violation(
        INVARIANT,
        `scope ${answer.scope}: ${answer.op.f} invoked at #${answer.op.invoke.index} was answered Busy by ${answer.holder} with token ${answer.token}, granted at #${given.at(-1)!.index} after the image of ${fault.f} #${fault.index} was taken (time ${fault.imageTime})`,
        [given.at(-1)!.index, fault.index, ...indicesOf(answer.op)],
        answer.scope,
      ),
    );
  }
  return violations;
}

export function restoreForgets(history: History): Verdict {
  const operations = pairOperations(history);
  const grants = leaseGrants(history, false);
  const answers = busyAnswers(operations);
  const replacements = replacementsOf(history);
  const judged = new Set<Operation>();
  return verdictOf([...afterRecoveries(operations, grants, answers, replacements, judged), ...afterImages(operations, grants, answers, replacements, judged)]);
}
