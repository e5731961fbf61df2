// The flags of `testbed gates` (cli/flags.ts).

import { JSON_FLAG, OUT_FLAG, SHARD_FLAG } from '../common-flags.ts';
import { defineFlags, type OptionsOf } from '../flags.ts';

export const GATES_FLAGS = defineFlags([
  OUT_FLAG,
  { flags: '--seeds <n>', description: 'seeds per scenario on the memory store', default: '200' },
  { flags: '--pg-seeds <n>', description: 'seeds per scenario on PostgreSQL', default: '5' },
  { flags: '--no-postgres', description: 'skip the PostgreSQL part (its gates show as untested)' },
  SHARD_FLAG,
  { flags: '--dry-run', description: "print this shard's share of the work and run nothing" },
  JSON_FLAG,
]);

export type GatesOptions = OptionsOf<typeof GATES_FLAGS>;
