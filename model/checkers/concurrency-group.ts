// concurrency-group (seed 000 §10–§17, §118–§122, §305): a workflow concurrency group in Queue,
// RejectNew or CancelPrevious mode runs one run at a time — a queued run starts only after the
// running one (or the ones it superseded) finished, and RejectNew refuses a run while one is
// active. The controllers record each run that holds its group as a `group-run` operation
// `{ group, runId, mode }`, from its start to its end (a crash ends it as `info`); two runs of one
// such group that were both holding it at once break the mode. AllowParallel groups are not judged.
// And in CancelPrevious the newest admission wins (seed 003, admission order): no `group-submit`
// `{ group, runId, admittedAt }` is taken in (Started, Superseding, Queued) after one admitted
// later was — an older run that arrives late neither cancels the newer run nor runs after it.
// And a cancelled run sends no new external effect after the request (cancelled-run-effects.ts).

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { controllerOps, endOf, indicesOf, numberField, pairOperations, requireString, stringField, type Operation } from './operations.ts';
import { effectsAfterCancel } from './cancelled-run-effects.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'concurrency-group';
const SERIAL = new Set(['Queue', 'RejectNew', 'CancelPrevious']);

export function concurrencyGroup(history: History): Verdict {
  const byGroup = new Map<string, Operation[]>();
  for (const op of controllerOps(pairOperations(history), 'group-run')) {
    const mode = requireString(op.invoke.value, 'mode', op.invoke.index);
    if (!SERIAL.has(mode)) continue;
    const group = requireString(op.invoke.value, 'group', op.invoke.index);
    byGroup.set(group, [...(byGroup.get(group) ?? []), op]);
  }
  const violations: Violation[] = [];
  for (const [group, runs] of byGroup) {
    for (let later = 1; later < runs.length; later++) {
      const b = runs[later]!;
      // Runs are in start order: b overlaps an earlier run that had not ended when b started.
      const a = runs.slice(0, later).find((earlier) => endOf(earlier) > b.invoke.index);
      if (a === undefined) continue;
      const mode = requireString(b.invoke.value, 'mode', b.invoke.index);
      violations.push(
        violation(INVARIANT, `group ${group} (${mode}): run ${requireString(b.invoke.value, 'runId', b.invoke.index)} started at #${b.invoke.index} while run ${requireString(a.invoke.value, 'runId', a.invoke.index)} (started #${a.invoke.index}) was still running`, [...indicesOf(a), ...indicesOf(b)]),
      );
    }
  }
  violations.push(...supersededNewer(pairOperations(history)), ...effectsAfterCancel(pairOperations(history)));
  return verdictOf(violations);
}

/** Decisions that take a run into its group (it runs, or will unless superseded). */
const TAKEN_IN = new Set(['Started', 'Superseding', 'Queued']);

/**
 * CancelPrevious submissions taken into their group after a run admitted later had been taken in:
 * an older run that arrived late and won (it superseded the newer one, or ran after it).
 */
function supersededNewer(operations: ReadonlyArray<Operation>): Violation[] {
  const taken = controllerOps(operations, 'group-submit').flatMap((op) => {
    const admittedAt = numberField(op.invoke.value, 'admittedAt');
    const decision = op.completion?.type === 'ok' ? stringField(op.completion.value, 'kind') : undefined;
    const mode = stringField(op.invoke.value, 'mode');
    if (admittedAt === undefined || mode !== 'CancelPrevious' || decision === undefined || !TAKEN_IN.has(decision)) return [];
    return [{ op, admittedAt, group: requireString(op.invoke.value, 'group', op.invoke.index), runId: requireString(op.invoke.value, 'runId', op.invoke.index) }];
  });
  const violations: Violation[] = [];
  for (const late of taken) {
    const newer = taken.find((other) => other.group === late.group && other.admittedAt > late.admittedAt && endOf(other.op) < late.op.invoke.index);
    if (newer === undefined) continue;
    violations.push(
      violation(INVARIANT, `group ${late.group} (CancelPrevious): run ${late.runId} admitted at t=${late.admittedAt} was taken in (#${endOf(late.op)}) after run ${newer.runId}, admitted later at t=${newer.admittedAt}, had been (#${endOf(newer.op)}): the older run won`, [...indicesOf(newer.op), ...indicesOf(late.op)]),
    );
  }
  return violations;
}
