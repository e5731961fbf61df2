// The CLI's exit codes (DESIGN.md "The CLI contract") and the two error classes that map to them.

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
