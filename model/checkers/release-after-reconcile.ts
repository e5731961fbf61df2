// release-after-reconcile (seed 000 §115–§121, §288–§289): a lease is not released while an
// effect planned under its token is in flight (intent Started or Unknown, not yet Succeeded,
// Failed or Reconciled) or an `effect` call under it has an unknown outcome that nobody observed;
// and a non-supersedable operation is never cancelled by CancelPrevious. A scope blocked after a
// failover or restore is reopened (ReconcileScope) only once every effect on it whose outcome was
// unknown or still in flight has been observed (inspected) or reconciled (§64–§65, §272–§276).

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { asFields, booleanField, controllerOps, effectOutcome, endOf, indicesOf, numberField, pairOperations, requireString, stringField, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'release-after-reconcile';

const IN_FLIGHT = new Set(['Started', 'Unknown']);
const SETTLED = new Set(['Succeeded', 'Failed', 'Reconciled']);

interface LeaseRelease {
  readonly op: Operation;
  readonly scope: string;
  readonly token: number;
  readonly how: string;
}

/** Releases: Release answered Released, and cancels whose ok value lists `released: [{ scope, token }]`. */
function leaseReleases(operations: ReadonlyArray<Operation>): ReadonlyArray<LeaseRelease> {
  const releases: LeaseRelease[] = [];
  for (const { op, command, outcome } of storeOps(operations, 'Release')) {
    if (outcome?.kind === 'Released') releases.push({ op, scope: command.scope, token: command.token, how: `Release by ${command.holder}` });
  }
  for (const op of controllerOps(operations, 'cancel')) {
    if (op.completion?.type !== 'ok') continue;
    const released = asFields(op.completion.value)?.['released'];
    if (!Array.isArray(released)) continue;
    for (const lease of released) {
      const scope = stringField(lease, 'scope');
      const token = numberField(lease, 'token');
      if (scope !== undefined && token !== undefined) releases.push({ op, scope, token, how: `cancel of run ${stringField(op.invoke.value, 'runId') ?? '?'}` });
    }
  }
  return releases;
}

export function releaseAfterReconcile(history: History): Verdict {
  const operations = pairOperations(history);
  const intents = storeOps(operations, 'PlanIntent').flatMap(({ outcome }) => (outcome?.kind === 'Planned' ? [outcome.intent] : []));
  const transitions = storeOps(operations, 'TransitionIntent');
  const effects = controllerOps(operations, 'effect');
  const inspects = controllerOps(operations, 'inspect');
  const violations: Violation[] = [];

  for (const release of leaseReleases(operations)) {
    const lease = `scope ${release.scope} token ${release.token}`;
    for (const intent of intents) {
      if (intent.scope !== release.scope || intent.token !== release.token) continue;
      const own = transitions.filter((t) => t.command.intentId === intent.intentId);
      const entered = own.filter((t) => t.outcome?.kind === 'Transitioned' && IN_FLIGHT.has(t.command.to) && endOf(t.op) < release.op.invoke.index).at(-1);
      if (entered === undefined) continue;
      const settled = own.some(
        (t) => SETTLED.has(t.command.to) && t.op.completion?.type !== 'fail' && t.op.invoke.index < endOf(release.op) && endOf(t.op) > entered.op.invoke.index,
      );
      if (settled) continue;
      violations.push(
        violation(INVARIANT, `${lease} released (${release.how}, #${endOf(release.op)}) while intent ${intent.intentId} (${intent.operation}) was ${entered.command.to} since #${endOf(entered.op)}`, [...indicesOf(entered.op), ...indicesOf(release.op)], release.scope),
      );
    }
    for (const effect of effects) {
      if (stringField(effect.invoke.value, 'scope') !== release.scope || numberField(effect.invoke.value, 'token') !== release.token) continue;
      if (effect.invoke.index > release.op.invoke.index) continue;
      const unknown = effectOutcome(effect) === 'unknown';
      // An effect still running when the release was invoked is in flight by definition.
      const stillRunning = endOf(effect) > release.op.invoke.index;
      if (!unknown && !stillRunning) continue;
      const intentId = requireString(effect.invoke.value, 'intentId', effect.invoke.index);
      const observed = inspects.some((i) => stringField(i.invoke.value, 'intentId') === intentId && i.completion?.type === 'ok' && i.invoke.index > effect.invoke.index && i.completion.index < release.op.invoke.index);
      const reconciled = transitions.some((t) => t.command.intentId === intentId && SETTLED.has(t.command.to) && t.outcome?.kind === 'Transitioned' && endOf(t.op) < release.op.invoke.index && t.op.invoke.index > effect.invoke.index);
      if (observed || reconciled) continue;
      violations.push(
        violation(INVARIANT, `${lease} released (${release.how}, #${endOf(release.op)}) while effect ${intentId} (#${effect.invoke.index}) had an unobserved outcome`, [...indicesOf(effect), ...indicesOf(release.op)], release.scope),
      );
    }
  }

  for (const { op: reopen, command } of storeOps(operations, 'ReconcileScope')) {
    const outcome = reopen.completion?.type === 'ok' ? stringField(reopen.completion.value, 'kind') : undefined;
    if (reopen.completion?.type === 'fail' || (outcome !== undefined && outcome !== 'Reconciled')) continue;
    for (const effect of effects) {
      if (stringField(effect.invoke.value, 'scope') !== command.scope || effect.invoke.index > reopen.invoke.index) continue;
      const open = effectOutcome(effect) === 'unknown' || endOf(effect) > reopen.invoke.index;
      if (!open) continue;
      const intentId = requireString(effect.invoke.value, 'intentId', effect.invoke.index);
      const observed = inspects.some((i) => stringField(i.invoke.value, 'intentId') === intentId && i.completion?.type === 'ok' && i.invoke.index > effect.invoke.index && i.completion.index < reopen.invoke.index);
      // The holder's own reconciliation counts even where the replaced store no longer knew the intent.
      const reconciled = transitions.some((t) => t.command.intentId === intentId && SETTLED.has(t.command.to) && t.op.completion?.type === 'ok' && endOf(t.op) < reopen.invoke.index && t.op.invoke.index > effect.invoke.index);
      if (observed || reconciled) continue;
      violations.push(
        violation(INVARIANT, `scope ${command.scope} reopened (ReconcileScope by ${command.actor}, #${endOf(reopen)}) while effect ${intentId} (#${effect.invoke.index}) had an unobserved outcome`, [...indicesOf(effect), ...indicesOf(reopen)], command.scope),
      );
    }
  }

  for (const cancel of controllerOps(operations, 'cancel')) {
    if (cancel.completion?.type !== 'ok') continue;
    if (booleanField(cancel.invoke.value, 'supersedable') !== false || stringField(cancel.invoke.value, 'mode') !== 'CancelPrevious') continue;
    violations.push(
      violation(INVARIANT, `group ${stringField(cancel.invoke.value, 'group') ?? '?'}: non-supersedable run ${stringField(cancel.invoke.value, 'runId') ?? '?'} cancelled by CancelPrevious (#${endOf(cancel)})`, indicesOf(cancel)),
    );
  }
  return verdictOf(violations);
}
