// The public API of the package (`import { … } from 'concurrency-testbed'`): the names a user's
// own project needs to run the testbed's scenarios against its store, chosen one by one. Anything
// not exported here is internal and may change. The store conformance suite for vitest is the
// separate entry `concurrency-testbed/conformance` (it imports vitest).

// Scenarios: the built-in catalogue, a scenario file, or one written in code.
export { defineScenario, listScenarios, loadScenario, parseScenario, ScenarioError } from './scenarios/index.ts';
export type { Scenario, ScenarioInput, ScriptedFault, WorkloadKind } from './scenarios/schema.ts';

// One seed: a plan drawn from (scenario, seed), played against a store and judged by the checkers.
export { executePlan, generatePlan, runScenario } from './sim/run.ts';
export type { ExecuteOptions, OpSpec, Plan, PlanStep, RunScenarioOptions, SimRunResult, StoreChoice } from './sim/run.ts';
export type { RunResult } from './sim/run-result.ts';
export type { ControllerPolicy } from './model/controller-policy.ts';
export { assertPasses, RunFailedError } from './campaign/assert-passes.ts';

// Many seeds.
export { seedRange, sweepScenario } from './campaign/sweep.ts';
export type { SweepResult, SweepScenarioOptions } from './campaign/sweep.ts';

// fast-check arbitraries: whole plans that shrink by deleting steps, and seeds.
export { planArbitrary, SEED_MAX, seedArbitrary } from './campaign/arbitraries.ts';
export type { SeedRange } from './campaign/arbitraries.ts';

// Shrinking a failure to a counterexample, failure files and their exact replay.
export { renderCounterexample } from './campaign/counterexample.ts';
export type { RenderOptions } from './campaign/counterexample.ts';
export { shrinkPlan, subPlan } from './campaign/shrink.ts';
export type { PlanExecutor, ShrinkPlanOptions, ShrunkPlan } from './campaign/shrink.ts';
export { failureOf, FailureFileError, readFailureFile, replayFailure, writeFailureFile } from './campaign/failure-file.ts';
export type { FailureFile } from './campaign/failure-file.ts';

// The checkers, by invariant name, over a Jepsen-shaped history.
export { CHECKERS, checkAll, INVARIANT_NAMES, isInvariantName } from './model/checkers/index.ts';
export type { CombinedVerdict, InvariantName } from './model/checkers/index.ts';
export type { Checker, Verdict, Violation } from './model/verdict.ts';
export type { FaultEvent, History, HistoryEvent, OpEvent, TruthEvent } from './model/history.ts';

// The store port a user's store implements, and the reference memory store.
export { OutcomeUnknownError, StoreUnavailableError } from './adapters/port.ts';
export type { CallContext, LifecycleEvent, SessionLeaseEnd, Store, StoreCapabilities, StoreFactory, StoreImage, StoreOptions, TimeSource } from './adapters/port.ts';
export { createMemoryStore } from './adapters/memory.ts';
export { clockKit, type ClockKit, type FakedName } from './adapters/clock-kit.ts';
export { isStoreEscape, StoreEscapeError, type EscapeSite } from './adapters/store-escape.ts';
export type { Command, CommandKind } from './model/commands.ts';
export type { Outcome, OutcomeOf, StoreView } from './model/outcomes.ts';

// The command-level model-based check (`testbed check`): random command sequences against a store
// and the reference model in lockstep, shrunk on the first divergence.
export { checkStore, formatCounterexample } from './campaign/check/index.ts';
export type { CheckOptions, CheckResult } from './campaign/check/index.ts';
