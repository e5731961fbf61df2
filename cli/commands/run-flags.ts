// The flags of `testbed run` (cli/flags.ts).

import { ADAPTER_FLAG, CONCURRENCY_FLAG, FAULTS_FLAG, INTERLEAVE_FLAG, JSON_FLAG } from '../common-flags.ts';
import { defineFlags, type OptionsOf } from '../flags.ts';

export const RUN_FLAGS = defineFlags([
  { flags: '--scenario <name|file.json>', description: 'scenario name or path to a scenario file', required: true, replay: 'scenario' },
  { flags: '--seed <n>', description: 'the seed', required: true, replay: 'seed' },
  ADAPTER_FLAG,
  FAULTS_FLAG,
  JSON_FLAG,
  { flags: '--no-shrink', description: 'do not shrink a failing run', replay: 'plan' },
  {
    flags: '--report [file]',
    description: "write the run's page: its timeline (a failing run: the shrunk counterexample, the failing step marked) (default: out/runs/<scenario>-seed-<n>-<adapter>.html)",
    sameRun: 'output',
  },
  CONCURRENCY_FLAG,
  INTERLEAVE_FLAG,
]);

export type RunOptions = OptionsOf<typeof RUN_FLAGS>;
