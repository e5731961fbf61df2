// outcome-at-return (seed 003, "cancellation cause reclassified after return": "Snapshot the
// cancellation cause before draining the refresh loop, so a lease-loss result that lands only after
// the handler already returned cannot reclassify the completed run as preempted or suppress a real
// handler error"; seed 000 §157–§159, a holder that lost its lease is OwnershipUncertain and stops;
// §224–§225, a run's result is what the runtime reports of it): a handler run's outcome follows what
// happened before its handler returned, and nothing after.
//
// Each `run` operation that was classified (ok or fail, not info) is judged by two facts about its
// process: the handler's `handler-returned` (its own result) and the first `cancel-cause` (the
// runtime learned the run must stop: a lease loss, a window passed, a cancellation):
// - a cause recorded before the return: the run was cancelled while its handler ran, so it is
//   `preempted`, whatever the handler returned;
// - no cause before the return (none at all, or one that landed after it, while the refresh loop
//   drained): the run is what its handler returned, `completed` for ok and `error` for an error.
//   A late loss never makes it `preempted`, and a handler error is never hidden behind one.
// A run classified before its handler returned broke the rule too. `completed` is an ok
// completion, `error` and `preempted` fail ones.
// And every run is reported. A run still open when the history ends breaks the rule when its
// handler returned and no renewal its incarnation sent before the return is still unanswered (the
// drain waits for nothing more), or when its handler never returned though its incarnation itself
// released the run's lease (the handler's work is over once its holder lets the lease go).
// And a run is told to stop only for what the history shows happened to it (cause-evidence.ts).

import type { History, TruthEvent } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { controllerOps, isTruth, pairOperations, stringField, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';
import { ofRunIncarnation, unfoundedCause } from './cause-evidence.ts';

const INVARIANT = 'outcome-at-return';

type Outcome = 'completed' | 'error' | 'preempted';

interface Facts {
  returned?: TruthEvent;
  cause?: TruthEvent;
}

export function outcomeAtReturn(history: History): Verdict {
  const facts = factsByRun(history);
  const operations = pairOperations(history);
  const violations: Violation[] = [];
  for (const run of controllerOps(operations, 'run')) {
    const runFacts = facts.get(run.process) ?? {};
    const found = run.completion === null ? unreported(run, runFacts, operations) : judge(run, runFacts);
    if (found !== null) violations.push(found);
    const cause = runFacts.cause;
    const unfounded = cause === undefined ? null : unfoundedCause(history, run, cause, operations);
    if (unfounded !== null) {
      const scope = stringField(run.invoke.value, 'scope');
      violations.push(violation(INVARIANT, `run ${run.process} (${scope ?? 'no scope'}) was told to stop (${stringField(cause!.value, 'cause') ?? 'no cause'}) at #${cause!.index} (t=${cause!.time}), but ${unfounded}`, [run.invoke.index, cause!.index], scope));
    }
  }
  return verdictOf(violations);
}

/** The violation of a run still open when the history ends, or null when it may yet be reported. */
function unreported(run: Operation, facts: Facts, operations: ReadonlyArray<Operation>): Violation | null {
  const incarnation = run.process.replace(/:run\d+$/, '');
  const scope = stringField(run.invoke.value, 'scope');
  const token = (run.invoke.value as { token?: unknown } | null)?.token;
  const name = `run ${run.process} (${scope ?? 'no scope'}, token ${String(token)})`;
  const returned = facts.returned;
  if (returned !== undefined) {
    const inFlight = (op: Operation) => op.f === 'Renew' && op.completion === null && op.invoke.index < returned.index;
    if (operations.some((op) => inFlight(op) && ofRunIncarnation(run, op.process))) return null;
    const what = `its handler returned at #${returned.index} (t=${returned.time}) and no renewal was left to drain`;
    return violation(INVARIANT, `${name}: ${what}, yet the run was never classified: its result was never reported`, [run.invoke.index, returned.index], scope);
  }
  const release = operations.find((op) => op.f === 'Release' && op.process === incarnation && op.invoke.index > run.invoke.index && isRelease(op.invoke.value, scope, token));
  if (release === undefined) return null;
  const what = `its holder released the run's lease at #${release.invoke.index} (t=${release.invoke.time})`;
  return violation(INVARIANT, `${name}: ${what}, yet its handler never returned and the run was never classified: its result was never reported`, [run.invoke.index, release.invoke.index], scope);
}

function isRelease(command: unknown, scope: string | undefined, token: unknown): boolean {
  const c = command as { scope?: unknown; token?: unknown } | null;
  return c !== null && c.scope === scope && c.token === token;
}

/** The handler's return and the run's first cause, by run process. A second return is a malformed history. */
function factsByRun(history: History): Map<string, Facts> {
  const facts = new Map<string, Facts>();
  for (const event of history) {
    if (!isTruth(event) || (event.f !== 'handler-returned' && event.f !== 'cancel-cause')) continue;
    const process = stringField(event.value, 'process');
    if (process === undefined) throw new Error(`#${event.index}: ${event.f} names the run's process`);
    const known = facts.get(process) ?? {};
    facts.set(process, known);
    if (event.f === 'cancel-cause') known.cause ??= event;
    else if (known.returned !== undefined) throw new Error(`#${event.index}: the handler of ${process} returned twice (#${known.returned.index})`);
    else known.returned = event;
  }
  return facts;
}

/** The violation of one classified run, or null (a run still open, or of unknown end, is not judged). */
function judge(run: Operation, facts: Facts): Violation | null {
  const end = run.completion;
  if (end === null || end.type === 'info') return null;
  const scope = stringField(run.invoke.value, 'scope');
  const outcome = stringField(end.value, 'outcome');
  const name = `run ${run.process} (${scope ?? 'no scope'}, token ${String((run.invoke.value as { token?: unknown } | null)?.token)})`;
  const at = (e: { index: number; time: number }) => `#${e.index} (t=${e.time})`;
  if (outcome === undefined || (end.type === 'ok') !== (outcome === 'completed')) {
    return violation(INVARIANT, `${name} closed ${end.type} with outcome ${outcome ?? 'none'} at ${at(end)}: completed is ok, error and preempted fail`, [run.invoke.index, end.index], scope);
  }
  const returned = facts.returned;
  if (returned === undefined || returned.index > end.index) {
    return violation(INVARIANT, `${name} was classified ${outcome} at ${at(end)} before its handler returned`, [run.invoke.index, end.index], scope);
  }
  const result = stringField(returned.value, 'result');
  const cause = facts.cause;
  const causeBefore = cause !== undefined && cause.index < returned.index;
  const expected: Outcome = causeBefore ? 'preempted' : result === 'ok' ? 'completed' : 'error';
  if (outcome === expected) return null;
  const events = [run.invoke.index, returned.index, end.index, ...(cause === undefined ? [] : [cause.index])];
  const causeText = cause === undefined ? '' : ` (${stringField(cause.value, 'cause') ?? 'a cause'})`;
  if (causeBefore) {
    return violation(INVARIANT, `${name} was classified ${outcome} at ${at(end)}, but it was told to stop${causeText} at ${at(cause)}, before its handler returned ${result} at ${at(returned)}: it was preempted`, events, scope);
  }
  const after = cause === undefined ? 'with no cause to stop' : `before its cancellation cause${causeText} landed at ${at(cause)}`;
  const what = expected === 'error' && outcome === 'preempted' ? ': the handler error was suppressed' : outcome === 'preempted' ? ': a completed run was reclassified' : '';
  return violation(INVARIANT, `${name}: its handler returned ${result} at ${at(returned)} ${after}, yet the run was classified ${outcome} at ${at(end)}${what}`, events, scope);
}
