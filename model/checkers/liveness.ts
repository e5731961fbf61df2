// liveness (seed 000 §90–§92, §294; docs/ARCHITECTURE.md "Faults": a liveness phase with faults healed):
// after the `liveness-phase` fault event, every `wait` completes ok within `boundMs` of the later
// of its invoke and the phase start; and, over the whole history, the queue serves its head: no
// caller overtakes a waiter that ranks before it by effective priority (FIFO with priority and
// aging, model/SEMANTICS.md "Leases").

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { controllerOps, endOf, faultsOf, indicesOf, pairOperations, requireNumber, requireString, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';
import { AGING_STEP_MS } from '../constants.ts';

const INVARIANT = 'liveness';

interface Waiter {
  readonly op: Operation;
  readonly scope: string;
  readonly waiterId: string;
  readonly priority: number;
}

/** True when the first waiter was certainly enqueued before the second (so it has the smaller seq). */
const enqueuedBefore = (a: Waiter, b: Waiter): boolean => endOf(a.op) < b.op.invoke.index;

/**
 * Queue order (§86–§92): whoever is granted a scope while others wait must be the head — the
 * waiter with the greatest effective priority `priority + floor(waited / AGING_STEP_MS)`, the
 * earlier one among equals. A waiter certainly still queued when a grant ran (enqueued before the
 * grant was invoked, and no Acquire that may have dequeued it nor CancelWait that may have
 * removed it invoked before the grant completed) is overtaken when the grant went to a caller
 * without a waiter id, to a later waiter whose priority is not above its own, or to a waiter
 * whose effective priority was certainly below its own at every moment the grant can have run.
 * A history in which the store's state was replaced (failover, restore) is not judged here.
 */
function overtakes(history: History): ReadonlyArray<Violation> {
  if (faultsOf(history, ['db-failover', 'db-restore']).length > 0) return [];
  const operations = pairOperations(history);
  const waiters: Waiter[] = storeOps(operations, 'Enqueue').flatMap(({ op, command, outcome }) =>
    outcome?.kind === 'Enqueued' ? [{ op, scope: command.scope, waiterId: command.waiterId, priority: command.priority }] : [],
  );
  const acquires = storeOps(operations, 'Acquire');
  // Operations that may have taken a waiter out of its queue: a grant or a cancel, or either with an unknown outcome.
  const leaving = new Map<string, number[]>();
  const leaves = (waiterId: string, op: Operation): void => {
    leaving.set(waiterId, [...(leaving.get(waiterId) ?? []), op.invoke.index]);
  };
  for (const { op, command, outcome } of acquires) {
    if (command.waiterId !== undefined && op.completion?.type !== 'fail' && (outcome === null || outcome.kind === 'Acquired')) leaves(command.waiterId, op);
  }
  for (const { op, command, outcome } of storeOps(operations, 'CancelWait')) {
    if (op.completion?.type !== 'fail' && (outcome === null || outcome.kind === 'WaitCancelled')) leaves(command.waiterId, op);
  }
  const queuedThroughout = (waiter: Waiter, grant: Operation): boolean =>
    endOf(waiter.op) < grant.invoke.index && !(leaving.get(waiter.waiterId) ?? []).some((at) => at > waiter.op.invoke.index && at < endOf(grant));
  const found: Violation[] = [];
  for (const { op, command, outcome } of acquires) {
    if (outcome?.kind !== 'Acquired' || op.completion === null) continue;
    const winner = command.waiterId === undefined ? undefined : waiters.filter((w) => w.waiterId === command.waiterId && w.scope === command.scope && endOf(w.op) < op.invoke.index).at(-1);
    if (command.waiterId !== undefined && winner === undefined) continue;
    const who = winner === undefined ? `${command.holder} without waiting` : `waiter ${winner.waiterId} (priority ${winner.priority}, enqueued #${endOf(winner.op)})`;
    for (const earlier of waiters) {
      if (earlier === winner || earlier.scope !== command.scope || !queuedThroughout(earlier, op)) continue;
      let why: string | null = null;
      if (winner === undefined) why = 'it did not wait';
      else if (enqueuedBefore(earlier, winner) && earlier.priority >= winner.priority) why = `it was enqueued later with priority ${winner.priority}`;
      else {
        // Effective priorities at the grant, bounded by the times each enqueue and the grant can have run.
        const least = earlier.priority + Math.floor((op.invoke.time - (earlier.op.completion?.time ?? op.invoke.time)) / AGING_STEP_MS);
        const most = winner.priority + Math.floor((op.completion.time - winner.op.invoke.time) / AGING_STEP_MS);
        if (least > most || (least === most && enqueuedBefore(earlier, winner))) why = `its effective priority was at most ${most}, below ${least}`;
      }
      if (why === null) continue;
      found.push(
        violation(INVARIANT, `scope ${command.scope}: ${who} acquired at #${endOf(op)} before waiter ${earlier.waiterId} (priority ${earlier.priority}, enqueued at #${endOf(earlier.op)}), although ${why}`, [...indicesOf(earlier.op), ...(winner === undefined ? [] : indicesOf(winner.op)), ...indicesOf(op)], command.scope),
      );
    }
  }
  return found;
}

export function liveness(history: History): Verdict {
  const phase = faultsOf(history, ['liveness-phase'])[0];
  if (phase === undefined) return verdictOf([...overtakes(history)]);
  const boundMs = requireNumber(phase.value, 'boundMs', phase.index);
  const endTime = history.at(-1)?.time ?? phase.time;
  const violations: Violation[] = [...overtakes(history)];
  const undecided: Violation[] = [];
  for (const wait of controllerOps(pairOperations(history), 'wait')) {
    const completion = wait.completion;
    if (completion !== null && completion.index < phase.index) continue;
    const deadline = Math.max(wait.invoke.time, phase.time) + boundMs;
    const scope = requireString(wait.invoke.value, 'scope', wait.invoke.index);
    const who = `waiter ${requireString(wait.invoke.value, 'waiterId', wait.invoke.index)} on scope ${scope} (#${wait.invoke.index})`;
    if (completion === null) {
      if (endTime >= deadline) violations.push(violation(INVARIANT, `${who} still waiting at the end (time ${endTime}), past its deadline ${deadline} (bound ${boundMs} ms after ${phase.f} #${phase.index})`, [phase.index, wait.invoke.index], scope));
      else undecided.push(violation(INVARIANT, `${who} still waiting when the history ends at time ${endTime}, before its deadline ${deadline}`, [wait.invoke.index], scope));
      continue;
    }
    if (completion.type !== 'ok') {
      violations.push(violation(INVARIANT, `${who} ended ${completion.type} at #${completion.index} during the liveness phase`, [phase.index, wait.invoke.index, completion.index], scope));
    } else if (completion.time > deadline) {
      violations.push(violation(INVARIANT, `${who} got the lease at time ${completion.time} (#${completion.index}), past its deadline ${deadline} (bound ${boundMs} ms)`, [phase.index, wait.invoke.index, completion.index], scope));
    }
  }
  if (violations.length > 0) return { valid: false, violations };
  // A wait cut off by the end of the history before its deadline can be judged neither way.
  return undecided.length > 0 ? { valid: 'unknown', violations: undecided } : { valid: true, violations: [] };
}
