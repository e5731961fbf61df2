// The mutation score (docs/ARCHITECTURE.md "Mutants", "Performance targets"): every mutant is
// run over its target scenarios, seed after seed, until a run shows a violation that the correct
// implementation does not show on the same plan; that plan is then shrunk to a counterexample.

import { inProcessAdapter } from '../mutants/in-process.ts';
import { MUTANTS, mutantPolicy, type Mutant } from '../mutants/index.ts';
import type { Violation } from '../model/verdict.ts';
import { loadScenario } from '../scenarios/index.ts';
import type { Scenario } from '../scenarios/schema.ts';
import { failureOf, type FailureFile } from './failure-file.ts';
import { presentFields } from './present-fields.ts';
import type { Plan } from '../sim/plan.ts';
import type { RunResult } from '../sim/run-result.ts';
import { executePlan, generatePlan, replayLine } from '../sim/run.ts';
import { counterexampleOf, countCalls, countOperations, renderCounterexample } from './counterexample.ts';
import { DEFAULT_SHRINK_RUNS, shrinkPlan, violates, type ShrunkPlan } from './shrink.ts';

export interface MutantReport {
  readonly name: string;
  readonly bug: string;
  readonly caught: boolean;
  /** Seeds tried (1..seedsTried), each over every target scenario, until the catch or the budget. */
  readonly seedsTried: number;
  readonly firstFailingSeed: number | null;
  /** The scenario that caught it at `firstFailingSeed`. */
  readonly firstFailingScenario: string | null;
  /** The scenario of the reported counterexample (the smallest shrunk catch: not always the first). */
  readonly scenario: string | null;
  /**
   * Client operations in the shrunk counterexample (its history up to the violation), a
   * waiter's run of identical polls counted once: the numbered rows of `counterexample`.
   */
  readonly shrunkOperations: number | null;
  /** Client calls in the same history, every poll counted. */
  readonly shrunkCalls: number | null;
  /** Plan steps (scheduled operations and faults) left after shrinking, of how many. */
  readonly shrunkSteps: number | null;
  readonly originalSteps: number | null;
  /** Simulator runs the shrinker spent, and whether it stopped at its budget. */
  readonly shrinkRuns: number | null;
  readonly shrinkExhausted: boolean | null;
  /** Violations of the shrunk counterexample (of the invariant that caught the mutant). */
  readonly violations: ReadonlyArray<Violation>;
  /** Replays the counterexample's seed: `npx testbed run --scenario <s> --seed <n> --adapter mutant:<name>`. */
  readonly replay: string | null;
  /** The counterexample as numbered steps (see `renderCounterexample`). */
  readonly counterexample: string | null;
  /** The shrunk failure, ready for `writeFailureFile`. */
  readonly failure: FailureFile | null;
  /** Target scenarios that do not exist (yet): they were skipped. */
  readonly missingScenarios: ReadonlyArray<string>;
  /** Every catch the hunt made (the first and the candidates after it), with the invariants that told the mutant from the correct implementation. */
  readonly catches: ReadonlyArray<MutantCatch>;
  /** Why no workload reaches the mutant's bug, for one only the command-level check catches: it was not hunted. */
  readonly checkOnly?: string;
}

export interface MutantCatch {
  readonly scenario: string;
  readonly seed: number;
  readonly invariants: ReadonlyArray<string>;
}

export interface MutantProgress {
  readonly mutant: string;
  readonly seed: number;
  readonly seeds: number;
  readonly caught: boolean;
}

export interface RunMutantsOptions {
  /** Seed budget per mutant (seeds 1..seeds). */
  readonly seeds?: number;
  readonly onProgress?: (progress: MutantProgress) => void;
  /** Defaults to the whole catalogue. */
  readonly mutants?: ReadonlyArray<Mutant>;
  /** Executor runs allowed to the shrinker per catch. */
  readonly shrinkRuns?: number;
  /**
   * Catches to shrink (the first, then later ones within a few seeds of it); the smallest
   * counterexample is reported. `seedsTried` and `firstFailingSeed` always come from the first.
   */
  readonly candidates?: number;
}

export const DEFAULT_MUTANT_SEEDS = 200;
const DEFAULT_CANDIDATES = 6;
/** How many seeds past the first catch are searched for further catches to shrink. */
const CANDIDATE_SEEDS_AFTER_CATCH = 20;

export async function runMutants(options: RunMutantsOptions = {}): Promise<MutantReport[]> {
  const seeds = options.seeds ?? DEFAULT_MUTANT_SEEDS;
  if (!Number.isInteger(seeds) || seeds < 1) throw new RangeError(`runMutants: seeds must be a positive integer, got ${seeds}`);
  const reports: MutantReport[] = [];
  for (const mutant of options.mutants ?? MUTANTS) reports.push(await runMutant(mutant, seeds, options));
  return reports;
}

function mutantReplay(mutant: Mutant, scenario: string, seed: number): string {
  return replayLine(scenario, seed, `mutant:${mutant.name}`, 'sim');
}

/**
 * Runs one plan on the mutant (its store over the memory store, and its policy). The hunt is an
 * audit of the history checkers: the shadow model's differential, which catches any store
 * mutant whose changed rule the workload reaches, is off here (the command-level check and
 * every `run`/`sweep` have it on).
 */
export function mutantExecutor(mutant: Mutant): (plan: Plan) => Promise<RunResult> {
  const { store } = inProcessAdapter(`mutant:${mutant.name}`)!;
  return (plan) => executePlan(plan, { store, differential: false, ...presentFields({ policy: mutantPolicy(mutant) }) });
}

/** Runs one plan on the correct implementation: the memory store and the correct policy. */
export function correctExecutor(): (plan: Plan) => Promise<RunResult> {
  const { store } = inProcessAdapter('memory')!;
  return (plan) => executePlan(plan, { store, differential: false });
}

/** The invariants the mutant breaks on `plan` that the correct implementation keeps, in the order they were reported. */
function discriminatingInvariants(mutantRun: RunResult, correctRun: RunResult): string[] {
  const found: string[] = [];
  for (const violation of mutantRun.violations) {
    if (!found.includes(violation.invariant) && !violates(correctRun, violation.invariant)) found.push(violation.invariant);
  }
  return found;
}

/** The invariants the mutant breaks on `plan` that the correct implementation keeps (the correct run only when the mutant broke any). */
async function discriminating(plan: Plan, onMutant: (plan: Plan) => Promise<RunResult>, onCorrect: (plan: Plan) => Promise<RunResult>): Promise<string[]> {
  const mutantRun = await onMutant(plan);
  if (mutantRun.violations.length === 0) return [];
  return discriminatingInvariants(mutantRun, await onCorrect(plan));
}

/** A catch as the hunt keeps it: with the plan to shrink and the invariant to shrink it by. */
interface Catch extends MutantCatch {
  readonly plan: Plan;
  readonly invariant: string;
}

/** What the report of a mutant that was not caught says of the catch it did not make. */
const notCaught = () => ({
  firstFailingSeed: null,
  firstFailingScenario: null,
  scenario: null,
  shrunkOperations: null,
  shrunkCalls: null,
  shrunkSteps: null,
  originalSteps: null,
  shrinkRuns: null,
  shrinkExhausted: null,
  violations: [],
  replay: null,
  counterexample: null,
  failure: null,
});

async function runMutant(mutant: Mutant, seeds: number, options: RunMutantsOptions): Promise<MutantReport> {
  // No scenario can catch it, so no seed is spent: its catch is the command-level check's.
  if (mutant.checkOnly !== undefined) {
    return { name: mutant.name, bug: mutant.bug, caught: false, seedsTried: 0, ...notCaught(), missingScenarios: [], catches: [], checkOnly: mutant.checkOnly };
  }
  const scenarios = mutant.scenarios.flatMap((name) => {
    try {
      return [{ name, scenario: loadScenario(name) }];
    } catch {
      return [];
    }
  });
  const missingScenarios = mutant.scenarios.filter((name) => !scenarios.some((s) => s.name === name));
  const catches = await hunt(mutant, scenarios, seeds, options);
  const first = catches[0];
  if (first === undefined) {
    return { name: mutant.name, bug: mutant.bug, caught: false, seedsTried: seeds, ...notCaught(), missingScenarios, catches: [] };
  }
  let best: Shrunk | null = null;
  for (const caught of catches) {
    const shrunk = await shrinkCatch(mutant, caught, options.shrinkRuns ?? DEFAULT_SHRINK_RUNS);
    if (best === null || shrunk.operations < best.operations || (shrunk.operations === best.operations && shrunk.calls < best.calls)) best = shrunk;
  }
  if (best === null) throw new Error('runMutants: a catch was found but nothing was shrunk');
  return {
    name: mutant.name,
    bug: mutant.bug,
    caught: true,
    seedsTried: first.seed,
    firstFailingSeed: first.seed,
    firstFailingScenario: first.scenario,
    scenario: best.caught.scenario,
    shrunkOperations: best.operations,
    shrunkCalls: best.calls,
    shrunkSteps: best.shrunk.plan.steps.length,
    originalSteps: best.shrunk.originalSteps,
    shrinkRuns: best.shrunk.runs,
    shrinkExhausted: best.shrunk.exhausted,
    violations: best.violations,
    replay: best.result.replay,
    counterexample: renderCounterexample(best.result, { invariant: best.caught.invariant, originalSteps: best.shrunk.originalSteps }),
    failure: failureOf(best.shrunk.plan, best.result, { mutant: mutant.name, ...presentFields({ policy: mutantPolicy(mutant) }) }),
    missingScenarios,
    catches: catches.map((c) => ({ scenario: c.scenario, seed: c.seed, invariants: c.invariants })),
  };
}

/**
 * Seed after seed over `scenarios`, the runs where the mutant breaks an invariant the correct
 * implementation keeps on the same plan: the first, then up to `candidates` within a few seeds of it.
 */
async function hunt(mutant: Mutant, scenarios: ReadonlyArray<{ readonly name: string; readonly scenario: Scenario }>, seeds: number, options: RunMutantsOptions, own = false): Promise<Catch[]> {
  const onMutant = mutantExecutor(mutant);
  const onCorrect = correctExecutor();
  const catches: Catch[] = [];
  const candidates = options.candidates ?? DEFAULT_CANDIDATES;
  let lastSeed = seeds;
  for (let seed = 1; seed <= lastSeed && catches.length < candidates; seed++) {
    for (const { name, scenario } of scenarios) {
      if (catches.length >= candidates) break;
      const plan = generatePlan(scenario, seed);
      const invariants = ownInvariants(mutant, await discriminating(plan, onMutant, onCorrect), own);
      const invariant = invariants[0];
      if (invariant === undefined) continue;
      if (catches.length === 0) lastSeed = Math.min(seeds, seed + CANDIDATE_SEEDS_AFTER_CATCH);
      catches.push({ scenario: name, seed, plan, invariant, invariants });
    }
    options.onProgress?.({ mutant: mutant.name, seed, seeds, caught: catches.length > 0 });
  }
  return catches;
}

/** With `own`, only the invariants the mutant names: the ones its gate rows credit a catch by. */
function ownInvariants(mutant: Mutant, invariants: string[], own: boolean): string[] {
  return own ? invariants.filter((i) => mutant.invariants?.includes(i) === true) : invariants;
}

/**
 * The first run, within `seeds` seeds of its scenarios, where `mutant` breaks one of its own
 * invariants that the correct implementation keeps on the same plan: the catch its gate rows
 * count, without shrinking. Null when it escapes. A scenario the mutant names that does not exist
 * is an error here, not a skip.
 */
export async function firstCatch(mutant: Mutant, seeds: number): Promise<MutantCatch | null> {
  const scenarios = mutant.scenarios.map((name) => ({ name, scenario: loadScenario(name) }));
  const [first] = await hunt(mutant, scenarios, seeds, { candidates: 1 }, true);
  return first === undefined ? null : { scenario: first.scenario, seed: first.seed, invariants: first.invariants };
}

/** Whether `mutant` breaks, on `scenario`'s plan of `seed`, one of its own invariants that the correct implementation keeps: those, or null. */
export async function catchAt(mutant: Mutant, scenario: string, seed: number): Promise<MutantCatch | null> {
  const found = await discriminating(generatePlan(loadScenario(scenario), seed), mutantExecutor(mutant), correctExecutor());
  const invariants = ownInvariants(mutant, found, true);
  return invariants.length === 0 ? null : { scenario, seed, invariants };
}

interface Shrunk {
  readonly caught: Catch;
  readonly shrunk: ShrunkPlan;
  /** The shrunk run, with the replay line of its seed. */
  readonly result: RunResult;
  readonly operations: number;
  readonly calls: number;
  readonly violations: ReadonlyArray<Violation>;
}

async function shrinkCatch(mutant: Mutant, caught: Catch, shrinkRuns: number): Promise<Shrunk> {
  const onCorrect = correctExecutor();
  const shrunk = await shrinkPlan(caught.plan, mutantExecutor(mutant), caught.invariant, {
    maxRuns: shrinkRuns,
    // The counterexample must show the mutant's bug: the correct implementation passes it.
    alsoRequire: async (candidate) => !violates(await onCorrect(candidate), caught.invariant),
  });
  const result: RunResult = { ...shrunk.result, replay: mutantReplay(mutant, caught.scenario, caught.seed) };
  const counterexample = counterexampleOf(result, caught.invariant);
  return {
    caught,
    shrunk,
    result,
    operations: countOperations(counterexample.history),
    calls: countCalls(counterexample.history),
    violations: counterexample.violations,
  };
}
