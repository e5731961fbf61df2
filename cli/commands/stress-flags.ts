// The flags of `testbed stress` (cli/flags.ts). Stress writes no failure file: its rerun line
// repeats the clients' choices, not the interleaving.

import { ADAPTER_FLAG, JSON_FLAG } from '../common-flags.ts';
import { defineFlags, type OptionsOf } from '../flags.ts';

export const STRESS_FLAGS = defineFlags([
  ADAPTER_FLAG,
  { flags: '--clients <n>', description: 'concurrent clients', default: '16' },
  { flags: '--duration <t>', description: 'how long the clients run: 30s, 500ms, 2m', default: '10s' },
  { flags: '--seed <n>', description: "the seed of the clients' choices (drawn at random and printed when absent)" },
  { flags: '--time <clock>', description: "the store's clock: database (its own) or wall (handed to it); default database on PostgreSQL, wall otherwise" },
  JSON_FLAG,
]);

export type StressCommandOptions = OptionsOf<typeof STRESS_FLAGS>;
