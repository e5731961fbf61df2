// The stress engine: concurrent clients against one store, and checks over the whole history.

export { checkStressHistory, STRESS_INVARIANTS, type StressTiming, type StressVerdict } from './checks/index.ts';
export { parseDuration } from './duration.ts';
export { runStress, StressSetupError, type StressOptions, type StressResult, type StressSessions } from './engine.ts';
export type { OpStatus, StressHistory, StressOp } from './history.ts';
export type { StressViolation } from './violation.ts';
