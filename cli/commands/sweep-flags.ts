// The flags of `testbed sweep` (cli/flags.ts).

import { ADAPTER_FLAG, CONCURRENCY_FLAG, FAULTS_FLAG, INTERLEAVE_FLAG, JSON_FLAG, SHARD_FLAG } from '../common-flags.ts';
import { defineFlags, type OptionsOf } from '../flags.ts';

export const SWEEP_FLAGS = defineFlags([
  { flags: '--scenario <name|all>', description: 'scenario name, file, or "all"', required: true, replay: 'scenario' },
  { flags: '--seeds <from..to>', description: 'seed range, for example 1..500', required: true, replay: 'seed' },
  ADAPTER_FLAG,
  FAULTS_FLAG,
  SHARD_FLAG,
  {
    flags: '--workers <n|auto>',
    description:
      'worker threads for memory and mutant sweeps (auto: one per core from 256 runs up); on PostgreSQL and for store modules and exec: stores, runs in flight at once (auto: 1 for these)',
    default: 'auto',
    sameRun: 'how the runs are spread: each gives the run it gives alone',
  },
  { flags: '--stop-at-first', description: 'stop at the first failing run (seed 1 of every scenario, then seed 2, ...)', sameRun: 'which runs are made, not what one does' },
  { flags: '--no-shrink', description: 'do not shrink the first failing run', replay: 'plan' },
  CONCURRENCY_FLAG,
  INTERLEAVE_FLAG,
  JSON_FLAG,
]);

export type SweepOptions = OptionsOf<typeof SWEEP_FLAGS>;
