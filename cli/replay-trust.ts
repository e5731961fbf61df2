// A failure file is data, and may come from anywhere (a CI artifact, a bug report): `replay` runs
// only code named on its own command line. A file whose adapter is a store module or an `exec:`
// command replays only with that adapter given again as `--adapter` (or `--trust-file-adapter`);
// otherwise it exits 2 saying what it would run. The replay lines the testbed prints for such
// files carry the `--adapter` they need, so pasting one still works.

import path from 'node:path';
import { shellWord } from '../sim/run.ts';
import { backendOf, isUserStore } from '../backends/index.ts';
import { UsageError } from './errors.ts';

export interface ReplayTrust {
  /** The adapter the user names for the replay. */
  readonly adapter?: string;
  /** Run whatever adapter the file names. */
  readonly trustFileAdapter?: boolean;
}

/** The command that replays the failure file at `file`, recorded on `adapter`. */
export function replayCommandLine(file: string, adapter: string): string {
  return `npx testbed replay ${shellWord(file)}${isUserStore(adapter) ? ` --adapter ${shellWord(adapter)}` : ''}`;
}

/** Throws a usage error unless the file's adapter may run: built in, named again by the user, or trusted. */
export function checkReplayTrust(file: string, recorded: string, trust: ReplayTrust): void {
  if (trust.adapter !== undefined && !sameAdapter(trust.adapter, recorded)) {
    throw new UsageError(`${file} was recorded on adapter ${recorded}, not ${trust.adapter}: a replay runs on the store the failure came from`);
  }
  if (!isUserStore(recorded) || trust.adapter !== undefined || trust.trustFileAdapter === true) return;
  const code = backendOf(recorded)!.userCode!;
  const what = code.kind === 'command' ? `runs the command ${code.what(recorded)}` : `loads the store module ${code.what(recorded)}`;
  throw new UsageError(`${file}: replaying it ${what}; replay runs only code named on its command line: ${replayCommandLine(file, recorded)} (or --trust-file-adapter)`);
}

/** Two adapter specs name the same store: equal, or module paths that resolve to the same file. */
function sameAdapter(a: string, b: string): boolean {
  if (a === b) return true;
  const isModule = (spec: string) => backendOf(spec)?.userCode?.kind === 'import';
  return isModule(a) && isModule(b) && path.resolve(a) === path.resolve(b);
}
