// What a run needs of a store that implements only some command kinds (capabilities.commands).
// The controller does without a few: it does not persist effect intents, waits by polling instead
// of queueing, and reopens scopes without inspecting. Any other command a scenario's workload
// sends is required: a store without it cannot be judged on that scenario, which is then
// untested, not passed and not failed. The checkers that read an optional command the store
// lacks would judge nothing, so they are left out of the run's verdict and named as unjudged.
// What a workload sends is found by playing the same plan on the reference store.

import type { CommandKind } from '../model/commands.ts';

/** Commands the controller can do without (sim/engine.ts answers them with null, recording nothing). */
export const OPTIONAL_COMMANDS: ReadonlySet<CommandKind> = new Set<CommandKind>(['PlanIntent', 'TransitionIntent', 'Enqueue', 'CancelWait', 'Inspect']);

/**
 * Optional commands some checkers read: without them those checkers would judge nothing and pass
 * vacuously, so a scenario judged by one of them needs the commands after all.
 */
const READ_BY_CHECKER: Readonly<Record<string, ReadonlyArray<CommandKind>>> = {
  liveness: ['Enqueue', 'CancelWait'],
  'release-after-reconcile': ['PlanIntent', 'TransitionIntent'],
  'cluster-doctor': ['Inspect'],
  'history-retained': ['Inspect'],
};

export interface Lacking {
  /** Required command kinds the run would send and the store lacks: the run cannot be judged. */
  readonly commands: ReadonlyArray<string>;
  /** Invariants that read an optional command the store lacks, each with what it lacks. */
  readonly unjudged: ReadonlyArray<{ readonly invariant: string; readonly lacks: ReadonlyArray<string> }>;
}

/** What a store declaring `declared` lacks for a run that sends `sent` (its coverage on the reference store) and is judged by `invariants`. */
export function lackingCommands(sent: ReadonlyArray<string>, declared: ReadonlyArray<CommandKind>, invariants: ReadonlyArray<string>): Lacking {
  const has = new Set<string>(declared);
  const commands = sent.filter((kind) => !OPTIONAL_COMMANDS.has(kind as CommandKind) && !has.has(kind)).sort();
  // A checker whose commands the run never sends, even on the reference store, judges nothing on
  // any store: lacking them takes nothing from it.
  const unjudged = invariants.flatMap((invariant) => {
    const reads = READ_BY_CHECKER[invariant] ?? [];
    if (!reads.some((kind) => sent.includes(kind))) return [];
    const lacks = reads.filter((kind) => !has.has(kind));
    return lacks.length === 0 ? [] : [{ invariant, lacks }];
  });
  return { commands, unjudged };
}
