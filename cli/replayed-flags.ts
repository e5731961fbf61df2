// Every flag that changes a run is carried by the failure file that replays it (cli/flags.ts
// `replay`): checked when the project compiles (`npm run typecheck`), never at run time. A flag
// marked `replay: 'x'` on a command whose failure file has no field `x` fails here, naming `x`:
// add the field to the file (and write it), or say which field carries the flag. And every flag
// of these commands says one or the other: `replay`, or why it does not change a run (`sameRun`);
// a new flag that says neither fails here, naming it.
//
// run and sweep write campaign/failure-file.ts `FailureFile`, race campaign/race/race-file.ts
// `RaceFile`, check cli/commands/check.ts `CheckFailureFile`. stress writes none (its rerun line
// repeats the clients' choices, not the interleaving); mutants and gates write run failure files of
// their own runs, and their flags choose the budget, not a run; replay, merge, scenarios and report
// run nothing new.

import type { FailureFile } from '../campaign/failure-file.ts';
import type { RaceFile } from '../campaign/race/race-file.ts';
import type { CheckFailureFile } from './commands/check.ts';
import type { CHECK_FLAGS } from './commands/check-flags.ts';
import type { RACE_FLAGS } from './commands/race-flags.ts';
import type { RUN_FLAGS } from './commands/run-flags.ts';
import type { SWEEP_FLAGS } from './commands/sweep-flags.ts';
import type { Assert, Decided, Replayed } from './flags.ts';

export type RunFlagsReplayed = Assert<Replayed<FailureFile, typeof RUN_FLAGS>>;
export type RunFlagsDecided = Assert<Decided<typeof RUN_FLAGS>>;
export type SweepFlagsDecided = Assert<Decided<typeof SWEEP_FLAGS>>;
export type CheckFlagsDecided = Assert<Decided<typeof CHECK_FLAGS>>;
export type RaceFlagsDecided = Assert<Decided<typeof RACE_FLAGS>>;
export type SweepFlagsReplayed = Assert<Replayed<FailureFile, typeof SWEEP_FLAGS>>;
export type CheckFlagsReplayed = Assert<Replayed<CheckFailureFile, typeof CHECK_FLAGS>>;
export type RaceFlagsReplayed = Assert<Replayed<RaceFile, typeof RACE_FLAGS>>;
