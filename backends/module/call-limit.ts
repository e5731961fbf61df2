// The time limit on every call into a user's store (its factory, execute, lifecycle, snapshot,
// restore and close), whatever the store keeps alive: a call that has not settled by then ends
// the command with a one-line finding naming the call (exit 3). 20 s by default, far beyond any
// honest store call; TESTBED_CALL_TIMEOUT_MS sets another. A limit in wall time gives no verdict:
// it only stops the wait for one.

import { CallTimeoutError } from '../../adapters/port.ts';
import { bounded, UsageError } from '../../adapters/errors.ts';

export const DEFAULT_CALL_TIMEOUT_MS = 20_000;
const MIN_MS = 100;
const MAX_MS = 3_600_000;

/** The limit from TESTBED_CALL_TIMEOUT_MS, or the default; a bad value is bad input. */
export function callTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.TESTBED_CALL_TIMEOUT_MS;
  if (text === undefined || text === '') return DEFAULT_CALL_TIMEOUT_MS;
  if (!/^\d+$/.test(text) || Number(text) < MIN_MS || Number(text) > MAX_MS) {
    throw new UsageError(`TESTBED_CALL_TIMEOUT_MS must be a whole number of milliseconds from ${MIN_MS} to ${MAX_MS}, got '${text}'`);
  }
  return Number(text);
}

/** Awaits `work()` as the call `label`; past `limitMs` it rejects with a CallTimeoutError naming the call. */
export function limitCall<T>(label: string, work: () => T | Promise<T>, limitMs: number): Promise<T> {
  return bounded(label, Promise.resolve().then(work), limitMs, () => new CallTimeoutError(label, limitMs));
}
