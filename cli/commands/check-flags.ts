// The flags of `testbed check` (cli/flags.ts).

import { ADAPTER_FLAG, JSON_FLAG } from '../common-flags.ts';
import { defineFlags, type OptionsOf } from '../flags.ts';

export const CHECK_FLAGS = defineFlags([
  ADAPTER_FLAG,
  {
    flags: '--profile <name>',
    description: 'default (a small world, up to 50 steps, fast) or long (tens of scopes, holders and keys, hundreds of steps: bugs that need many operations)',
    default: 'default',
    replay: 'profile',
  },
  // The counterexample's seed and path stand for the sequences tried before it: a replay needs no --runs.
  { flags: '--runs <n>', description: "random command sequences to try (default: the profile's, 5000 or 500)", sameRun: 'a budget: the seed and path stand for the sequences before' },
  { flags: '--seed <n>', description: 'the seed (drawn at random and printed when absent)', replay: 'seed' },
  { flags: '--path <path>', description: 'replay the counterexample at this path (with its --seed and --profile)', replay: 'path' },
  { flags: '--max-steps <n>', description: "longest sequence of steps (default: the profile's, 50 or 500)", replay: 'maxSteps' },
  JSON_FLAG,
]);

export type CheckCommandOptions = OptionsOf<typeof CHECK_FLAGS>;
