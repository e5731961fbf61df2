// The CLI's exit codes (docs/ARCHITECTURE.md "The CLI contract"), the two error classes that map to them, and
// the helpers that turn any failure into one line naming what failed: a person reads that line,
// and `--verbose` adds the stack trace.

import { describeError, UndecidedError, UsageError } from '../adapters/errors.ts';

export { bounded, describeError, firstLine, UndecidedError, UsageError, waitingFor } from '../adapters/errors.ts';

export const EXIT = {
  ok: 0,
  violation: 1,
  usage: 2,
  undecided: 3,
} as const;


/**
 * A failure while doing `what` (for example `stale-holder seed 1 on postgres`), as an error whose
 * one-line message names it. Bad input stays bad input; anything else cannot decide (exit 3). The
 * original error is kept as the cause, for `--verbose`.
 */
export function inContext(what: string, error: unknown): Error {
  if (error instanceof UsageError) return error;
  if (error instanceof UndecidedError) return new UndecidedError(`${what}: ${error.message}`, { cause: error });
  return new UndecidedError(`${what}: ${describeError(error)}`, { cause: error });
}

/** Runs `work`; a failure is rethrown through `inContext(what, …)`. */
export async function during<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw inContext(what, error);
  }
}

/** The stack of an error and of every cause under it, for `--verbose`. */
export function stackChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    parts.push(current instanceof Error ? (current.stack ?? `${current.name}: ${current.message}`) : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join('\ncaused by: ');
}
