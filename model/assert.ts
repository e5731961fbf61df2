// The bug channel (TigerBeetle style): an assertion that fails means the model itself is wrong.
// Domain outcomes never travel this way; they are returned values.

export class AssertionError extends Error {
  constructor(message: string) {
    super(`assertion failed: ${message}`);
    this.name = 'AssertionError';
  }
}

export function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}

/** Exhaustiveness guard for switch statements over closed unions. */
export function unreachable(value: never, what: string): never {
  throw new AssertionError(`unreachable ${what}: ${JSON.stringify(value)}`);
}
