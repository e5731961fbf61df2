// The `testbed` command (docs/ARCHITECTURE.md "The CLI contract"). Each subcommand lives in its own module
// under cli/commands/ and is loaded only when used, so `testbed scenarios` does not start a
// database. Exit codes: 0 no violation, 1 violation, 2 bad input or usage, 3 undecided.
// Whatever goes wrong ends in one line naming what failed; `--verbose` adds the stack trace.

import { CommanderError } from 'commander';
import { buildProgram } from './program.ts';
import { readFileSync } from 'node:fs';
import { describeError, EXIT, firstLine, stackChain, UndecidedError, UsageError, waitingFor } from './errors.ts';
import { writtenFailureFiles } from './record-failure.ts';
import { replayCommandLine } from './replay-trust.ts';
import { takeStray, unthrownEscape } from '../backends/module/store-escapes.ts';

async function main(argv: string[], verbose: boolean): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return process.exitCode === undefined ? EXIT.ok : Number(process.exitCode);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
      return EXIT.usage;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`testbed: ${firstLine(error)}\n`);
      return EXIT.usage;
    }
    const expected = error instanceof UndecidedError;
    const hint = verbose || expected ? '' : ' (--verbose prints the stack trace)';
    process.stderr.write(`testbed: could not decide: ${expected ? firstLine(error) : describeError(error)}${hint}\n`);
    if (verbose) process.stderr.write(`${stackChain(error)}\n`);
    return EXIT.undecided;
  }
}

/** The adapter a failure file names ('' when it cannot be read: then the line needs no --adapter). */
function recordedAdapter(file: string): string {
  try {
    const adapter = (JSON.parse(readFileSync(file, 'utf8')) as { adapter?: unknown }).adapter;
    return typeof adapter === 'string' ? adapter : '';
  } catch {
    return '';
  }
}

/** After an interrupt, what was already found: every failure file written so far, with how to replay it. */
function interrupted(signal: NodeJS.Signals): void {
  const files = writtenFailureFiles();
  const found = files.length === 0 ? 'no failure file was written' : `failure files written: ${files.join(', ')}`;
  process.stderr.write(`\ntestbed: interrupted by ${signal}; ${found}\n`);
  for (const file of files) process.stderr.write(`replay: ${replayCommandLine(file, recordedAdapter(file))}\n`);
  // The exit hooks stop any server this process started; its watchdog removes the rest.
  exitWith(signal === 'SIGINT' ? 130 : 143);
}

let finished = false;
/** Set before each exit the testbed itself makes; any other exit came from code it ran. */
let ownExit = false;
function exitWith(code: number): never {
  ownExit = true;
  process.exit(code);
}
// The event loop ran dry before the command finished: something awaited a promise that nothing
// will ever settle (a store factory or a store call that never answers). Say what, and stop.
process.on('beforeExit', () => {
  if (finished) return;
  const what = waitingFor();
  process.stderr.write(`testbed: could not decide: ${what === undefined ? 'the command' : what} never finished (a promise that nothing settles)\n`);
  exitWith(EXIT.undecided);
});
// Code the testbed runs (a store module) ended the process before the command finished: no exit
// of that kind may pass for a verdict. Writes to stderr are synchronous here, and the exit code
// set in this listener is the one the process ends with.
process.on('exit', (code) => {
  if (finished || ownExit) return;
  const what = waitingFor();
  process.stderr.write(`testbed: could not decide: the process was ended (process.exit(${code})) ${what === undefined ? 'before the command finished' : `during ${what}`}, with no verdict\n`);
  process.exitCode = EXIT.undecided;
});
// An error that no call awaited (thrown from a store's timer or callback, or a rejection it left
// unhandled): while a user's store is open it is the store's, and the call in flight fails with it,
// a finding (backends/module/store-escapes.ts). Otherwise one line, naming what the command was waiting for,
// never a stack trace unless asked.
const stray = (error: unknown, how: 'uncaught exception' | 'unhandled rejection'): void => {
  // The verdict is printed and the process is on its way out: it stands.
  if (finished) return;
  if (takeStray(error, how)) return;
  const what = waitingFor();
  process.stderr.write(`testbed: could not decide: an error no call awaited${what === undefined ? '' : ` (during ${what})`}: ${describeError(error)}\n`);
  if (process.argv.includes('--verbose')) process.stderr.write(`${stackChain(error)}\n`);
  exitWith(EXIT.undecided);
};
process.on('uncaughtException', (error) => stray(error, 'uncaught exception'));
process.on('unhandledRejection', (reason) => stray(reason, 'unhandled rejection'));
process.once('SIGINT', interrupted);
process.once('SIGTERM', interrupted);

const verdict = await main(process.argv, process.argv.includes('--verbose'));
finished = true;
const unheard = unthrownEscape();
if (unheard !== null && verdict === EXIT.ok) process.stderr.write(`testbed: could not decide: ${unheard.message}, and no call of the store was left to report it\n`);
const code = unheard !== null && verdict === EXIT.ok ? EXIT.undecided : verdict;
// Exit once stdout has drained, so that a lingering handle (a pool, a timer in a library)
// can never keep a finished command alive.
process.stdout.write('', () => exitWith(code));
