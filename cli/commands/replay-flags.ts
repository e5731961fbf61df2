// The flags of `testbed replay` (cli/flags.ts). The file it replays says how the run went; these
// say only how to read it.

import { JSON_FLAG } from '../common-flags.ts';
import { defineFlags, type OptionsOf } from '../flags.ts';

export const REPLAY_FLAGS = defineFlags([
  {
    flags: '--adapter <name>',
    description: 'the store to replay on, as the file names it: needed when that is a store module or exec: command, which replay runs only when named here',
  },
  { flags: '--trust-file-adapter', description: 'run the store module or exec: command the file names without naming it again' },
  JSON_FLAG,
]);

export type ReplayOptions = OptionsOf<typeof REPLAY_FLAGS>;
