// The two kinds of failure every layer above the store port may raise, and how a wait is bounded.
// A UsageError is bad input (the CLI exits 2 with its one line); an UndecidedError means the run
// could not decide (infrastructure failed; exit 3). The CLI maps them to exit codes (cli/errors.ts).

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
