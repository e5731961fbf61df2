// The input the gate report renders from: what one release-readiness run collected (scenario
// sweeps, mutant hunts, test suites) plus a few full histories kept for timelines. It is saved
// as `results.json` and every report is computed from it alone, so a report can be rebuilt later.

import type { Violation } from '../../model/verdict.ts';
import type { RunResult } from '../../sim/run-result.ts';

/** The first failing seed of a sweep, with what it showed and the line that replays it. */
export interface FirstFailure {
  readonly seed: number;
  readonly replay: string;
  readonly violations: ReadonlyArray<Violation>;
  /** The seed did not fail again when run again for its history: still a failure found, with no history kept. */
  readonly flaky?: true;
}

/** One sweep of one scenario on one adapter (`testbed sweep --json` plus the scenario's metadata). */
export interface ScenarioEvidence {
  readonly scenario: string;
  readonly title: string;
  /** Seed sections the scenario proves, for example `000 §281`. */
  readonly sources: ReadonlyArray<string>;
  /** The adapter it ran on (`--adapter`). */
  readonly adapter: string;
  readonly faults: 'sim' | 'real';
  /** `pass` for a scenario the correct implementation must survive; `violation` for an `-unmitigated` demonstration. */
  readonly expect: 'pass' | 'violation';
  readonly seedsRun: number;
  /** Seeds that ended with at least one violation. */
  readonly failures: number;
  readonly firstFailure?: FirstFailure;
  /** `unknown` when some seeds could not be decided (infrastructure failure, checker unknown); absent or `decided` otherwise. */
  readonly status?: 'decided' | 'unknown';
  /** Real (wall-clock) time the sweep took, in ms; report metadata only (JUnit times). */
  readonly durationMs?: number;
}

/** One mutant hunt (`testbed mutants --json`): did a known-bad implementation get caught? */
export interface MutantEvidence {
  readonly name: string;
  readonly bug: string;
  readonly caught: boolean;
  readonly seedsTried: number;
  readonly firstFailingSeed?: number;
  /** The scenario that caught it at `firstFailingSeed`. */
  readonly firstFailingScenario?: string;
  /** Operations in the shrunk counterexample. */
  readonly shrunkOperations?: number;
  /** The run the counterexample was shrunk from, when it is not the first catch (the smallest of a few catches is kept). */
  readonly shrunkFrom?: { readonly scenario: string; readonly seed: number };
  /** Replays the first catch: `firstFailingScenario` at `firstFailingSeed`. */
  readonly replay?: string;
  /** The command-level check on the same mutant (store mutants only). */
  readonly check?: CheckStageEvidence;
  /** Real time the hunt took (command-level check, simulator, shrinking), in ms. */
  readonly durationMs?: number;
  /** The hunt's catches: on which scenario and seed, by which invariants (a gate row counts only catches on its own scenarios by its own invariants). */
  readonly catches?: ReadonlyArray<MutantCatchEvidence>;
  /**
   * Set for a store mutant no workload reaches (why not): it is not hunted (`seedsTried` 0), and it
   * is caught when the command-level check catches it (`check`).
   */
  readonly checkOnly?: string;
}

/** Whether the mutant was caught where it can be: by the hunt, or by the check for a check-only mutant. */
export function mutantCaught(m: Pick<MutantEvidence, 'caught' | 'checkOnly' | 'check'>): boolean {
  return m.checkOnly === undefined ? m.caught : m.check?.caught === true;
}

export interface MutantCatchEvidence {
  readonly scenario: string;
  readonly seed: number;
  readonly invariants: ReadonlyArray<string>;
}

/** How the command-level check (`testbed check`) fared on a mutant. */
export interface CheckStageEvidence {
  readonly caught: boolean;
  /** Milliseconds to the first divergent command sequence, before shrinking. */
  readonly firstFailureMs?: number;
  /** Steps of the shrunk counterexample. */
  readonly steps?: number;
  readonly replay: string;
}

/** A test suite's totals, for example the conformance suite against PostgreSQL. */
export interface SuiteEvidence {
  readonly name: string;
  readonly passed: number;
  readonly failed: number;
  /** Real time its tests took, in ms. */
  readonly durationMs?: number;
}

export interface GateRunInput {
  /** ISO-8601 wall-clock time; report metadata only, never an input to any verdict. */
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly scenarios: ReadonlyArray<ScenarioEvidence>;
  readonly mutants: ReadonlyArray<MutantEvidence>;
  readonly suites: ReadonlyArray<SuiteEvidence>;
  /** Full runs kept for timelines: one per scenario and every failing one. */
  readonly samples: ReadonlyArray<RunResult>;
}
