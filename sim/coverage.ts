// Workload coverage: which command kinds of the store port a run sent, and which of their
// outcome kinds (model/outcome-kinds.ts) it got back. Summed over a sweep, it tells which rules
// the workload can reach at all — a rule no workload reaches is one no checker can judge.

import type { History } from '../model/history.ts';
import { COMMAND_KINDS, OUTCOME_PAIRS } from '../model/outcome-kinds.ts';

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
  readonly outcomes: { readonly reached: number; readonly total: number; readonly missing: ReadonlyArray<string> };
  /** Per scenario, what its runs reached together. */
  readonly scenarios: Readonly<Record<string, RunCoverage>>;
}

/** Coverage of a sweep from the coverage of its runs. */
export function summarizeCoverage(runs: ReadonlyArray<{ readonly scenario: string; readonly coverage: RunCoverage }>): CoverageSummary {
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
  return {
    commands: { reached: COMMAND_KINDS.filter((c) => allCommands.has(c)).length, total: COMMAND_KINDS.length, missing: COMMAND_KINDS.filter((c) => !allCommands.has(c)) },
    outcomes: { reached: OUTCOME_PAIRS.filter((o) => allOutcomes.has(o)).length, total: OUTCOME_PAIRS.length, missing: OUTCOME_PAIRS.filter((o) => !allOutcomes.has(o)) },
    scenarios,
  };
}
