// Flags that several commands share, declared once (cli/flags.ts). Each command lists the ones it
// takes among its own, in cli/commands/<command>-flags.ts.

import { backendSyntaxes, defaultAdapter } from '../backends/index.ts';
import type { Flag } from './flags.ts';

export const JSON_FLAG = { flags: '--json', description: 'print one JSON document', sameRun: 'output' } as const satisfies Flag;

export const OUT_FLAG = { flags: '--out <dir>', description: 'output directory', default: 'out', sameRun: 'output' } as const satisfies Flag;

export const ADAPTER_FLAG = {
  flags: '--adapter <adapter>',
  description: `${backendSyntaxes()} (exec:<command> is a store in any language speaking JSON lines)`,
  default: defaultAdapter(),
  replay: 'adapter',
} as const satisfies Flag;

export const FAULTS_FLAG = {
  flags: '--faults <mode>',
  description: 'sim keeps faults simulated; real maps them to real actions (postgres only)',
  choices: ['sim', 'real'],
  default: 'sim',
  replay: 'faults',
} as const satisfies Flag;

export const SHARD_FLAG = {
  flags: '--shard <i/n>',
  description: 'do only the i-th of n shares of the work (also TESTBED_SHARD=i/n, or TESTBED_SHARDS=n with JOB_COMPLETION_INDEX)',
  sameRun: 'which runs this process does, not what a run does',
} as const satisfies Flag;

/** How store calls that meet at a PostgreSQL database run: `run` and `sweep` take both; the failure file keeps `free` as its interleave. */
export const CONCURRENCY_FLAG = {
  flags: '--concurrency <mode>',
  description: 'PostgreSQL stores: lockstep (default), or free: calls that meet at the database run at once, unheld (not replayed exactly)',
  replay: 'interleave',
} as const satisfies Flag;

export const INTERLEAVE_FLAG = {
  flags: '--interleave [strategy]',
  description:
    'PostgreSQL stores: concurrent store calls in sessions of their own, statements interleaved in a seeded order (random, the default, or pct; random-functions and pct-functions also stop before every statement of PL/pgSQL functions in the run schema)',
  replay: 'interleave',
} as const satisfies Flag;
