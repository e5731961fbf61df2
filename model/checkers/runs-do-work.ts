// runs-do-work (seed 000 §59–§65, the external effect of a job is what its handler runs for;
// §224–§225, a run's result is what the runtime reports of it): a handler run that nothing stopped
// calls its provider. A controller that holds its lease, is told nothing (no cancellation, no lease
// lost, no window passed) and is refused nothing by its store, yet ends its run without ever
// calling the provider, did not do the work it was given, whatever it reports: every safety rule
// holds of a controller that does nothing.
//
// Each `run` operation that was classified (ok or fail, not info) is judged by what its process P
// (the run's process without its `:run<n>` suffix) did while the run was open:
// - a `cancel-cause` of the run (at any time) excuses it: it was told to stop;
// - a call of P in the run that did not grant what it asked excuses it: the handler may stop on a
//   refusal. A call is refused when it failed or its outcome is unknown, and a store call too when
//   it answered anything but the command's granting kind (the first of OUTCOME_KINDS);
// - otherwise P sent an `effect` to the provider while the run was open.

import { COMMAND_KINDS, OUTCOME_KINDS } from '../outcome-kinds.ts';
import type { CommandKind } from '../commands.ts';
import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { controllerOps, isTruth, pairOperations, stringField, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'runs-do-work';
const RUN_PROCESS = /^(.*):run\d+$/;
const STORE_KINDS: ReadonlySet<string> = new Set(COMMAND_KINDS);

export function runsDoWork(history: History): Verdict {
  const operations = pairOperations(history);
  const told = new Set<string>();
  for (const event of history) {
    if (isTruth(event) && event.f === 'cancel-cause') told.add(stringField(event.value, 'process') ?? '');
  }
  const byProcess = new Map<string, Operation[]>();
  for (const op of operations) {
    const list = byProcess.get(op.process);
    if (list === undefined) byProcess.set(op.process, [op]);
    else list.push(op);
  }
  const violations: Violation[] = [];
  for (const run of controllerOps(operations, 'run')) {
    const end = run.completion;
    const process = RUN_PROCESS.exec(run.process)?.[1];
    if (end === null || end.type === 'info' || process === undefined || told.has(run.process)) continue;
    const inRun = (byProcess.get(process) ?? []).filter((op) => op.invoke.index > run.invoke.index && op.invoke.index < end.index);
    if (inRun.some((op) => op.f === 'effect') || inRun.some(refused)) continue;
    const scope = stringField(run.invoke.value, 'scope');
    const token = String((run.invoke.value as { token?: unknown } | null)?.token);
    violations.push(
      violation(
        INVARIANT,
        `run ${run.process} (${scope ?? 'no scope'}, token ${token}) closed ${stringField(end.value, 'outcome') ?? end.type} at #${end.index} (t=${end.time}) without calling its provider, though nothing told it to stop and its store refused it nothing (${inRun.length} store calls granted)`,
        [run.invoke.index, end.index],
        scope,
      ),
    );
  }
  return verdictOf(violations);
}

/** A call that did not grant what it asked: failed, of unknown outcome, or a store's other answer. */
function refused(op: Operation): boolean {
  if (op.completion?.type !== 'ok') return true;
  return STORE_KINDS.has(op.f) && stringField(op.completion.value, 'kind') !== OUTCOME_KINDS[op.f as CommandKind][0];
}
