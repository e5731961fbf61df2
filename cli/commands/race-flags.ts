// The flags of `testbed race` (cli/flags.ts). The race failure file keeps the case (its kinds, and
// whether it stepped inside functions) and the whole schedule that failed, so the flags that chose
// that schedule are carried by it.

import { backendChoices, defaultRaceAdapter } from '../../backends/index.ts';
import { JSON_FLAG, OUT_FLAG, SHARD_FLAG } from '../common-flags.ts';
import { defineFlags, type OptionsOf } from '../flags.ts';

export const RACE_FLAGS = defineFlags([
  { flags: '--adapter <name>', description: `${backendChoices((b) => b.interleavable)} that connects to options.connectionString`, default: defaultRaceAdapter(), replay: 'adapter' },
  { flags: '--kinds <list>', description: 'command kinds to race, comma-separated (default: every kind the store implements)', replay: 'kinds' },
  { flags: '--depth <n>', description: 'calls per case: 2 (pairs) or 3 (triples)', default: '2', replay: 'kinds' },
  {
    flags: '--inside-functions',
    description: 'also step between the statements of PL/pgSQL functions in the run schema (schedules bounded by --preemptions)',
    replay: 'insideFunctions',
  },
  {
    flags: '--preemptions <n>',
    description: 'at most this many switches away from a session that could go on, per schedule (default: none between statements, 2 inside functions)',
    replay: 'schedule',
  },
  {
    flags: '--strategy <name>',
    description: 'exhaustive (every schedule, orders of independent steps skipped), random (a random walk per schedule) or pct (PCT schedules of bug depth --pct-depth)',
    default: 'exhaustive',
    replay: 'schedule',
  },
  {
    flags: '--max-schedules <n>',
    description: 'schedules per case: the budget before a case is reported as bounded (exhaustive, default 5000), or the samples per case (random, pct: default 50)',
    replay: 'schedule',
  },
  { flags: '--seed <n>', description: 'the seed of random and pct schedules', default: '1', replay: 'schedule' },
  { flags: '--pct-depth <d>', description: 'PCT bug depth: d - 1 priority change points per schedule, at scheduling points (1 to 10)', default: '3', replay: 'schedule' },
  { flags: '--stop-at-first', description: 'start no case after one fails; report the failing case that comes first in case order', sameRun: 'which cases are run, not what one does' },
  {
    flags: '--function-samples <n>',
    description:
      'after each case, that many PCT samples that also step inside the PL/pgSQL functions its calls run (default 10; 0: none; --inside-functions explores inside them instead)',
    replay: 'schedule',
  },
  { flags: '--workers <n>', description: 'cases explored at once, each on stores of its own (1 to 8)', default: '4', sameRun: 'how the cases are spread: each on stores of its own' },
  SHARD_FLAG,
  { ...OUT_FLAG, description: 'output directory (the failure file)' },
  JSON_FLAG,
]);

export type RaceCommandOptions = OptionsOf<typeof RACE_FLAGS>;
