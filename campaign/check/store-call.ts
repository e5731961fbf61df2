// A call into the store under check, within the call time limit. A store that throws gives a
// thrown error as its answer (a bug of the store, which diverges from the model); a store that
// cannot be reached, answers with an unknown outcome or does not answer in time aborts the check,
// which could not decide.

import { OutcomeUnknownError, StoreLostError, StoreUnavailableError } from '../../adapters/port.ts';

/** An environment failure: the check cannot decide. */
export class Abort extends Error {}

/** The store's answer; a thrown bug is an answer too, an environment failure aborts. */
export async function answerOf(call: () => Promise<unknown>, timeoutMs: number, what: string): Promise<unknown> {
  try {
    return await within(call(), timeoutMs, what);
  } catch (error) {
    if (error instanceof Abort) throw error;
    if (error instanceof OutcomeUnknownError || error instanceof StoreUnavailableError || error instanceof StoreLostError) {
      throw new Abort(`the store failed on ${what}: ${messageOf(error)}`);
    }
    return { thrown: messageOf(error) };
  }
}

export async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Abort(`the store did not answer ${what} within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function messageOf(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split('\n')[0]!;
}
