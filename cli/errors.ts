// The CLI's exit codes (docs/ARCHITECTURE.md "The CLI contract"), the two error classes that map to them, and
// the helpers that turn any failure into one line naming what failed: a person reads that line,
// and `--verbose` adds the stack trace.

export const EXIT = {
  ok: 0,
  violation: 1,
  usage: 2,
  undecided: 3,
} as const;

/** Bad input or usage: a one-line message, exit code 2, nothing written. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The run could not decide: infrastructure failed or a checker returned unknown. Exit code 3. */
export class UndecidedError extends Error {
  override readonly name = 'UndecidedError';
}

/** The first non-empty line of an error's message (a library's multi-line message stays one line here). */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? (error instanceof Error ? error.name : 'unknown error');
}

/** JavaScript's own error kinds (a bug somewhere, not a message written for a person) keep their name. */
const BUILT_IN = new Set(['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError', 'EvalError', 'URIError', 'AssertionError']);

/** An error in one line: its first message line, after its kind when that is one of JavaScript's own. */
export function describeError(error: unknown): string {
  const kind = error instanceof Error && BUILT_IN.has(error.name) ? `${error.name}: ` : '';
  return `${kind}${firstLine(error)}`;
}

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

/**
 * What the command waits for right now, innermost last. When the event loop runs dry while the
 * command has not finished (a promise nothing will ever settle: a store that never answers), the
 * CLI says which of these it was waiting for instead of leaving silently.
 */
const waits: string[] = [];

export function waitingFor(): string | undefined {
  return waits[waits.length - 1];
}

/**
 * Awaits `promise`, named `label` while it is pending; rejects with an UndecidedError when it has
 * not settled after `timeoutMs`. The timer does not keep the process alive on its own, so a
 * promise that can never settle is reported at once (see `waitingFor`), not after the timeout.
 */
export async function bounded<T>(label: string, promise: Promise<T>, timeoutMs: number, timedOut: () => Error = () => new UndecidedError(`${label} did not finish within ${Math.round(timeoutMs / 1000)} s`)): Promise<T> {
  waits.push(label);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
    waits.splice(waits.lastIndexOf(label), 1);
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
