// concurrency-group (seed 000 §10–§17, §118–§122, §305): a workflow concurrency group in Queue,
// RejectNew or CancelPrevious mode runs one run at a time — a queued run starts only after the
// running one (or the ones it superseded) finished, and RejectNew refuses a run while one is
// active. The controllers record each run that holds its group as a `group-run` operation
// `{ group, runId, mode }`, from its start to its end (a crash ends it as `info`); two runs of one
// such group that were both holding it at once break the mode. AllowParallel groups are not judged.
// And in CancelPrevious the newest admission wins (seed 003, admission order): a `group-submit`
// `{ group, runId, admittedAt }` answered Superseding never cancels a run admitted after it.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { asFields, controllerOps, endOf, indicesOf, numberField, pairOperations, requireString, type Operation } from './operations.ts';
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
  violations.push(...supersededNewer(pairOperations(history)));
  return verdictOf(violations);
}

/** CancelPrevious submissions that cancelled a run admitted after them (an older run arrived late and won). */
function supersededNewer(operations: ReadonlyArray<Operation>): Violation[] {
  const submits = controllerOps(operations, 'group-submit');
  const admission = new Map<string, { readonly at: number; readonly op: Operation }>();
  for (const op of submits) {
    const at = numberField(op.invoke.value, 'admittedAt');
    if (at !== undefined) admission.set(requireString(op.invoke.value, 'runId', op.invoke.index), { at, op });
  }
  const violations: Violation[] = [];
  for (const op of submits) {
    const decision = op.completion?.type === 'ok' ? asFields(op.completion.value) : undefined;
    const own = numberField(op.invoke.value, 'admittedAt');
    if (decision?.kind !== 'Superseding' || own === undefined || !Array.isArray(decision.cancelled)) continue;
    const runId = requireString(op.invoke.value, 'runId', op.invoke.index);
    for (const victim of decision.cancelled) {
      const newer = typeof victim === 'string' ? admission.get(victim) : undefined;
      if (newer === undefined || newer.at <= own) continue;
      const group = requireString(op.invoke.value, 'group', op.invoke.index);
      violations.push(violation(INVARIANT, `group ${group} (CancelPrevious): run ${runId} admitted at t=${own} superseded run ${victim} admitted later, at t=${newer.at}: the older run won`, [...indicesOf(newer.op), ...indicesOf(op)]));
    }
  }
  return violations;
}
