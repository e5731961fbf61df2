// Part of concurrency-group (seed 000 §115–§117, §119–§121): a cancelled run stops new side
// effects. Once a run's cancellation was requested (a `cancel` operation naming its run id), the
// run starts no external effect: an effect already started is reconciled, never a new one begun.
// An effect has started when its intent was moved to Started (the durable record a reconciler
// inspects, §60–§65) or, for a run without intents, when it was sent. A run of a concurrency group
// is a `group-run` operation of process `P:group`; the effects it sends are the `effect` operations
// of process P while it is open (one run at a time per process). Any other cancelled run (a user
// cancelling a running deploy) is the operation the cancel names, run by the process whose helper
// asked for the cancel (`P:…`, the same incarnation): its effects are those of P whose intent is
// the operation's (`<runId>/…`). Judged wherever runs are cancelled.

import type { Violation } from '../verdict.ts';
import { controllerOps, endOf, requireString, storeOps, type Operation } from './operations.ts';
import { violation } from './violations.ts';

const INVARIANT = 'concurrency-group';
const RUN_SUFFIX = ':group';

/** The earliest cancellation request of each run id: the history index of its invoke. */
function cancelRequests(operations: ReadonlyArray<Operation>): ReadonlyMap<string, Operation> {
  const first = new Map<string, Operation>();
  for (const cancel of controllerOps(operations, 'cancel')) {
    const runId = requireString(cancel.invoke.value, 'runId', cancel.invoke.index);
    if (!first.has(runId)) first.set(runId, cancel);
  }
  return first;
}

/** Per process and intent, the earliest request to move the intent to Started: the effect's start. */
function startsOfIntents(operations: ReadonlyArray<Operation>): ReadonlyMap<string, number> {
  const starts = new Map<string, number>();
  for (const { op, command } of storeOps(operations, 'TransitionIntent')) {
    const key = `${op.process}\u0000${command.intentId}`;
    if (command.to === 'Started' && !starts.has(key)) starts.set(key, op.invoke.index);
  }
  return starts;
}

/** Effects that runs started after their cancellation had been requested. */
export function effectsAfterCancel(operations: ReadonlyArray<Operation>): Violation[] {
  const cancels = cancelRequests(operations);
  if (cancels.size === 0) return [];
  const effects = controllerOps(operations, 'effect');
  const starts = startsOfIntents(operations);
  const startedAt = (effect: Operation): number => starts.get(`${effect.process}\u0000${requireString(effect.invoke.value, 'intentId', effect.invoke.index)}`) ?? effect.invoke.index;
  const violations: Violation[] = [];
  const judged = new Set<string>();
  for (const run of controllerOps(operations, 'group-run')) {
    if (!run.process.endsWith(RUN_SUFFIX)) continue;
    const runId = requireString(run.invoke.value, 'runId', run.invoke.index);
    const cancel = cancels.get(runId);
    if (cancel === undefined) continue;
    judged.add(runId);
    const process = run.process.slice(0, -RUN_SUFFIX.length);
    const requested = cancel.invoke.index;
    const late = effects.find((e) => e.process === process && e.invoke.index > run.invoke.index && e.invoke.index < endOf(run) && startedAt(e) > requested);
    if (late === undefined) continue;
    const group = requireString(run.invoke.value, 'group', run.invoke.index);
    violations.push(
      violation(INVARIANT, `group ${group}: run ${runId} started an external effect (#${startedAt(late)}, sent #${late.invoke.index}) after its cancellation was requested (#${requested}): a cancelled run starts no new side effect`, [run.invoke.index, requested, startedAt(late), late.invoke.index]),
    );
  }
  for (const [runId, cancel] of cancels) {
    if (judged.has(runId)) continue;
    const process = cancel.process.split(':')[0]!;
    const requested = cancel.invoke.index;
    const late = effects.find((e) => e.process === process && requireString(e.invoke.value, 'intentId', e.invoke.index).startsWith(`${runId}/`) && startedAt(e) > requested);
    if (late === undefined) continue;
    violations.push(
      violation(INVARIANT, `run ${runId} of ${process} started an external effect (#${startedAt(late)}, sent #${late.invoke.index}) after its cancellation was requested (#${requested}): a cancelled run starts no new side effect`, [requested, startedAt(late), late.invoke.index]),
    );
  }
  return violations;
}
