// The command-level check: its entry point, its options and result, and the pieces a user's own
// fast-check test can reuse (the step arbitraries and the lockstep runner).

export { checkStore, type CheckOptions, type CheckResult } from './check-store.ts';
export { isCheckPath, type StepFormat } from './step-format.ts';
export { formatCounterexample } from './format.ts';
export { runSteps, sameOutcome, type RunOutcome, type StepRecord } from './execute.ts';
export { StoreSession } from './session.ts';
export { stepArbitrary, stepsArbitrary, type CheckStep, type StepOptions } from './steps.ts';
export type { CallTemplate, ProcessEvent } from './processes.ts';
export { ALL_COMMAND_KINDS } from './command-arbitraries.ts';
export { checkMutant, MUTANT_CHECK_RUNS, MUTANT_CHECK_SEED, type StageCatch } from './mutant-check.ts';
