// The flags of `testbed mutants` (cli/flags.ts).

import { JSON_FLAG, OUT_FLAG, SHARD_FLAG } from '../common-flags.ts';
import { defineFlags, type OptionsOf } from '../flags.ts';

export const MUTANTS_FLAGS = defineFlags([
  { flags: '--seeds <n>', description: 'seed budget per mutant', default: '200' },
  { ...OUT_FLAG, description: 'output directory (failure files, and the shard file of a shard)' },
  SHARD_FLAG,
  { flags: '--dry-run', description: "print this shard's share of the mutants and run nothing" },
  JSON_FLAG,
]);

export type MutantsOptions = OptionsOf<typeof MUTANTS_FLAGS>;
