// Workload coverage: which command kinds of the store port a run sent, and which of their
// outcome kinds (model/outcome-kinds.ts) it got back. Summed over a sweep, it tells which rules
// the workload can reach at all — a rule no workload reaches is one no checker can judge.
// A sweep is measured against the command kinds the store declares (`capabilities.commands`):
// a store that implements fewer kinds is not told it missed the outcomes of kinds it lacks.

import type { History } from '../model/history.ts';
import { COMMAND_KINDS, OUTCOME_KINDS } from '../model/outcome-kinds.ts';
import { UNREACHABLE_OUTCOMES, type UnreachablePair } from './unreachable-outcomes.ts';

export interface RunCoverage {
  /** Command kinds sent, sorted. */
  readonly commands: ReadonlyArray<string>;
  /** `Command:Outcome` pairs answered, sorted. */
  readonly outcomes: ReadonlyArray<string>;
}

const COMMANDS: ReadonlySet<string> = new Set(COMMAND_KINDS);

export function coverageOf(history: History): RunCoverage {
  const commands = new Set<string>();
  const outcomes = new Set<string>();
  for (const event of history) {
    if (!COMMANDS.has(event.f)) continue;
    if (event.type === 'invoke') commands.add(event.f);
    else if (event.type === 'ok') {
      const kind = (event.value as { kind?: unknown } | null)?.kind;
      if (typeof kind === 'string') outcomes.add(`${event.f}:${kind}`);
    }
  }
  return { commands: [...commands].sort(), outcomes: [...outcomes].sort() };
}

export interface CoverageSummary {
  readonly commands: { readonly reached: number; readonly total: number; readonly missing: ReadonlyArray<string> };
  /**
   * Over the pairs of the declared command kinds: `missing` leaves out the pairs listed
   * `unreachable` (sim/unreachable-outcomes.ts), which are counted in `total` and named with why.
   */
  readonly outcomes: { readonly reached: number; readonly total: number; readonly missing: ReadonlyArray<string>; readonly unreachable: ReadonlyArray<UnreachablePair> };
  /** Per scenario, what its runs reached together. */
  readonly scenarios: Readonly<Record<string, RunCoverage>>;
}

export interface CoverageOptions {
  /** The command kinds the store declares (`capabilities.commands`); absent: every kind of the port. */
  readonly declared?: ReadonlyArray<string>;
  /** The pairs no must-pass scenario can reach, with why (default: sim/unreachable-outcomes.ts). */
  readonly unreachable?: ReadonlyArray<UnreachablePair>;
}

/** Coverage of a sweep from the coverage of its runs. */
export function summarizeCoverage(runs: ReadonlyArray<{ readonly scenario: string; readonly coverage: RunCoverage }>, options: CoverageOptions = {}): CoverageSummary {
  const perScenario = new Map<string, { commands: Set<string>; outcomes: Set<string> }>();
  for (const run of runs) {
    const entry = perScenario.get(run.scenario) ?? { commands: new Set<string>(), outcomes: new Set<string>() };
    for (const c of run.coverage.commands) entry.commands.add(c);
    for (const o of run.coverage.outcomes) entry.outcomes.add(o);
    perScenario.set(run.scenario, entry);
  }
  const allCommands = new Set([...perScenario.values()].flatMap((e) => [...e.commands]));
  const allOutcomes = new Set([...perScenario.values()].flatMap((e) => [...e.outcomes]));
  const scenarios: Record<string, RunCoverage> = {};
  for (const [name, e] of perScenario) scenarios[name] = { commands: [...e.commands].sort(), outcomes: [...e.outcomes].sort() };
  const declared = options.declared === undefined ? null : new Set(options.declared);
  const kinds = COMMAND_KINDS.filter((c) => declared === null || declared.has(c));
  const pairs = kinds.flatMap((command) => (OUTCOME_KINDS[command] as ReadonlyArray<string>).map((outcome) => `${command}:${outcome}`));
  const inScope = new Set(pairs);
  // A listed pair that a run reached after all is counted reached, not unreachable.
  const unreachable = (options.unreachable ?? UNREACHABLE_OUTCOMES).filter((u) => inScope.has(u.pair) && !allOutcomes.has(u.pair));
  const listed = new Set(unreachable.map((u) => u.pair));
  return {
    commands: { reached: kinds.filter((c) => allCommands.has(c)).length, total: kinds.length, missing: kinds.filter((c) => !allCommands.has(c)) },
    outcomes: { reached: pairs.filter((o) => allOutcomes.has(o)).length, total: pairs.length, missing: pairs.filter((o) => !allOutcomes.has(o) && !listed.has(o)), unreachable },
    scenarios,
  };
}
