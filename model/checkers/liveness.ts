// liveness (seed 000 §90–§92, §294; DESIGN.md "Faults": a liveness phase with faults healed):
// after the `liveness-phase` fault event, every `wait` completes ok within `boundMs` of the later
// of its invoke and the phase start; and no waiter overtakes an earlier one on the same scope
// whose priority is at least its own (with FIFO and aging such an earlier waiter always ranks first).

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { controllerOps, endOf, faultsOf, indicesOf, pairOperations, requireNumber, requireString, storeOps, type Operation } from './operations.ts';
import { violation } from './violations.ts';

const INVARIANT = 'liveness';

interface Waiter {
  readonly op: Operation;
  readonly scope: string;
  readonly waiterId: string;
  readonly priority: number;
}

function overtakes(history: History, phaseIndex: number): ReadonlyArray<Violation> {
  const operations = pairOperations(history);
  const waiters: Waiter[] = storeOps(operations, 'Enqueue').flatMap(({ op, command, outcome }) =>
    outcome?.kind === 'Enqueued' && op.invoke.index > phaseIndex ? [{ op, scope: command.scope, waiterId: command.waiterId, priority: command.priority }] : [],
  );
  const acquires = storeOps(operations, 'Acquire');
  const cancels = storeOps(operations, 'CancelWait');
  const leftQueueBy = (waiter: Waiter, before: number): boolean =>
    acquires.some(({ op, command }) => command.waiterId === waiter.waiterId && op.invoke.index > waiter.op.invoke.index && op.invoke.index < before) ||
    cancels.some(({ op, command }) => command.waiterId === waiter.waiterId && op.invoke.index > waiter.op.invoke.index && op.invoke.index < before);
  const found: Violation[] = [];
  for (const { op, command, outcome } of acquires) {
    if (outcome?.kind !== 'Acquired') continue;
    // An Acquire without a waiter id that succeeds while others queue has bypassed the queue.
    const winner = command.waiterId === undefined ? undefined : waiters.filter((w) => w.waiterId === command.waiterId && w.scope === command.scope && endOf(w.op) < op.invoke.index).at(-1);
    if (command.waiterId !== undefined && winner === undefined) continue;
    const cutoff = winner?.op.invoke.index ?? op.invoke.index;
    const who = winner === undefined ? `${command.holder} without waiting` : `waiter ${winner.waiterId} (priority ${winner.priority}, enqueued #${endOf(winner.op)})`;
    for (const earlier of waiters) {
      if (earlier.scope !== command.scope || endOf(earlier.op) >= cutoff) continue;
      if (winner !== undefined && earlier.priority < winner.priority) continue;
      if (leftQueueBy(earlier, endOf(op))) continue;
      found.push(
        violation(INVARIANT, `scope ${command.scope}: ${who} acquired at #${endOf(op)} before waiter ${earlier.waiterId} (priority ${earlier.priority}, enqueued earlier at #${endOf(earlier.op)})`, [...indicesOf(earlier.op), ...(winner === undefined ? [] : indicesOf(winner.op)), ...indicesOf(op)], command.scope),
      );
    }
  }
  return found;
}

export function liveness(history: History): Verdict {
  const phase = faultsOf(history, ['liveness-phase'])[0];
  if (phase === undefined) return { valid: true, violations: [] };
  const boundMs = requireNumber(phase.value, 'boundMs', phase.index);
  const endTime = history.at(-1)?.time ?? phase.time;
  const violations: Violation[] = [...overtakes(history, phase.index)];
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
