// Reads the coordination layer's record from a history: the `leader-change` fault events
// `{ term, epoch, leader, voters, votes }` (seed 001 §22–§24, §82–§83) and the role epochs a
// store has certainly seen (AdvanceRoleEpoch, or a guard it accepted). Several checkers judge
// store operations against these.

import { assert } from '../assert.ts';
import type { RoleGuard } from '../commands.ts';
import type { FaultEvent, History } from '../history.ts';
import { incarnationOfProcess } from '../node-incarnation.ts';
import { asFields, faultsOf, requireNumber, requireString, storeOps, type Operation } from './operations.ts';

export interface LeaderChange {
  readonly event: FaultEvent;
  readonly term: number;
  readonly epoch: number;
  /** The leader's incarnation, `c2#1`. */
  readonly leader: string;
  readonly voters: number;
  /** Voter node names whose votes made the majority, the leader's own included. */
  readonly votes: ReadonlyArray<string>;
}

export function leaderChanges(history: History): ReadonlyArray<LeaderChange> {
  return faultsOf(history, ['leader-change']).map((event) => {
    const votes = asFields(event.value)?.['votes'];
    assert(Array.isArray(votes) && votes.every((v) => typeof v === 'string'), `#${event.index}: leader-change lists its votes`);
    return {
      event,
      term: requireNumber(event.value, 'term', event.index),
      epoch: requireNumber(event.value, 'epoch', event.index),
      leader: requireString(event.value, 'leader', event.index),
      voters: requireNumber(event.value, 'voters', event.index),
      votes: votes as ReadonlyArray<string>,
    };
  });
}

/** A role epoch the store certainly holds from history index `at` on. */
export interface Established {
  readonly role: string;
  readonly epoch: number;
  /** The incarnation that established it. */
  readonly by: string;
  readonly at: number;
  readonly op: Operation;
}

export function guardOf(command: unknown): RoleGuard | undefined {
  const guard = asFields(asFields(command)?.['guard']);
  if (guard === undefined) return undefined;
  const role = guard['role'];
  const epoch = guard['epoch'];
  return typeof role === 'string' && typeof epoch === 'number' ? { role, epoch } : undefined;
}

/**
 * Role epochs established in the store: an AdvanceRoleEpoch that answered RoleEpochAdvanced, and
 * a guarded Acquire, DispatchJob or Mutate that was not Fenced (the store records a passing guard's epoch).
 */
export function establishedEpochs(operations: ReadonlyArray<Operation>): ReadonlyArray<Established> {
  const found: Established[] = [];
  for (const { op, command, outcome } of storeOps(operations, 'AdvanceRoleEpoch')) {
    if (outcome?.kind !== 'RoleEpochAdvanced' || op.completion === null) continue;
    found.push({ role: command.role, epoch: command.epoch, by: incarnationOfProcess(op.process), at: op.completion.index, op });
  }
  for (const kind of ['Acquire', 'DispatchJob', 'Mutate'] as const) {
    for (const { op, command, outcome } of storeOps(operations, kind)) {
      const guard = guardOf(command);
      // A dispatch of a job that is unknown or done is answered before its guard is looked at.
      if (guard === undefined || outcome === null || outcome.kind === 'Fenced' || outcome.kind === 'NotDispatchable' || op.completion === null) continue;
      found.push({ role: guard.role, epoch: guard.epoch, by: incarnationOfProcess(op.process), at: op.completion.index, op });
    }
  }
  return found.sort((a, b) => a.at - b.at);
}

/** Per role, the highest epoch established strictly before history index `before`. */
export function establishedBefore(established: ReadonlyArray<Established>, before: number): ReadonlyMap<string, Established> {
  const highest = new Map<string, Established>();
  for (const e of established) {
    if (e.at >= before) break;
    const current = highest.get(e.role);
    if (current === undefined || e.epoch > current.epoch) highest.set(e.role, e);
  }
  return highest;
}
