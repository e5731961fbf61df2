// runs-do-work (seed 000 §59–§61, an effect's intent is persisted, then the provider is called;
// §115–§117, a cancellation is what stops new side effects): a handler run that nothing stopped
// calls its provider. A controller that holds its lease, is told nothing (no cancellation, no lease
// lost, no window passed) and is refused nothing, yet returns from its handler without ever calling
// the provider, did not do the work it was given, whatever it reports: every safety rule holds of
// a controller that does nothing.
//
// Each `run` operation that was classified (ok or fail, not info) is judged by what its process P
// (the run's process without its `:run<n>` suffix) did from the run's start until its handler
// returned (the classification waits for the refresh loop to drain, and by then P may have
// released and started its next job):
// - a `cancel-cause` of the run (at any time) excuses it: it was told to stop;
// - a call of P that was refused and not overcome excuses it: the handler may stop on a refusal.
//   A call is refused when it failed or its outcome is unknown, and a store call too when it
//   answered anything but what grants the request (the command's first kind in OUTCOME_KINDS; a
//   PlanIntent's Duplicate also grants it: the intent is planned). A later call of the same kind
//   that was granted overcame it (a write retried after a StaleVersion);
// - otherwise P sent an `effect` to the provider in that time.

import { COMMAND_KINDS, OUTCOME_KINDS } from '../outcome-kinds.ts';
import type { CommandKind } from '../commands.ts';
import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { controllerOps, isTruth, pairOperations, stringField, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'runs-do-work';
const RUN_PROCESS = /^(.*):run\d+$/;
const STORE_KINDS: ReadonlySet<string> = new Set(COMMAND_KINDS);

/** Answers besides a command's first kind that grant what it asked. */
const GRANTS_TOO: Readonly<Partial<Record<CommandKind, ReadonlyArray<string>>>> = { PlanIntent: ['Duplicate'] };

export function runsDoWork(history: History): Verdict {
  const operations = pairOperations(history);
  const told = new Set<string>();
  const returned = new Map<string, number>();
  for (const event of history) {
    if (!isTruth(event) || (event.f !== 'cancel-cause' && event.f !== 'handler-returned')) continue;
    const process = stringField(event.value, 'process');
    if (process === undefined) throw new Error(`#${event.index}: ${event.f} names the run's process`);
    if (event.f === 'cancel-cause') told.add(process);
    else if (!returned.has(process)) returned.set(process, event.index);
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
    if (end === null || end.type === 'info' || told.has(run.process)) continue;
    const process = RUN_PROCESS.exec(run.process)?.[1];
    if (process === undefined) throw new Error(`#${run.invoke.index}: run process ${run.process} is not <process>:run<n>`);
    const until = returned.get(run.process) ?? end.index;
    const inRun = (byProcess.get(process) ?? []).filter((op) => op.invoke.index > run.invoke.index && op.invoke.index < until);
    if (inRun.some((op) => op.f === 'effect') || inRun.some((op, i) => refused(op) && !inRun.slice(i + 1).some((later) => later.f === op.f && !refused(later)))) continue;
    const scope = stringField(run.invoke.value, 'scope');
    const token = String((run.invoke.value as { token?: unknown } | null)?.token);
    const storeCalls = inRun.filter((op) => STORE_KINDS.has(op.f)).length;
    violations.push(
      violation(
        INVARIANT,
        `run ${run.process} (${scope ?? 'no scope'}, token ${token}) closed ${stringField(end.value, 'outcome') ?? end.type} at #${end.index} (t=${end.time}): its handler returned at #${until} without calling its provider, though nothing told it to stop and none of its ${storeCalls} store calls was refused`,
        [run.invoke.index, until, end.index].filter((v, k, all) => all.indexOf(v) === k),
        scope,
      ),
    );
  }
  return verdictOf(violations);
}

/** A call that did not grant what it asked: failed, of unknown outcome, or a store's other answer. */
function refused(op: Operation): boolean {
  if (op.completion?.type !== 'ok') return true;
  if (!STORE_KINDS.has(op.f)) return false;
  const kind = stringField(op.completion.value, 'kind');
  const command = op.f as CommandKind;
  return kind !== OUTCOME_KINDS[command][0] && !(GRANTS_TOO[command]?.includes(kind ?? '') ?? false);
}
