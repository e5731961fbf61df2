// Errors that escape a user's store through the real event loop: an exception thrown from one of
// its timers or callbacks, or a promise it left rejected with no handler. The process handlers of
// cli/main.ts hand them here while a user's store is open; each becomes a StoreEscapeError naming
// the store call in flight (its command kind and process), thrown from that call, or from the next
// one when none was in flight, so that the run reports a `port-contract` finding with its replay
// line (exit 1) and the check a divergence, instead of the process ending (docs/ARCHITECTURE.md
// "Errors that escape a store"). With no user store open the handlers keep their old meaning: an
// error of the testbed's own, undecided (exit 3).
//
// The process is one, so where several runs have calls in flight at once (`sweep --workers n` on a
// store module) the call named is the one that started last; and while a user's store is open,
// an error of the testbed's own that no call awaited is taken for the store's too. An escape no
// call was left to throw does not vanish: the command ends undecided naming it (cli/main.ts).

import { StoreEscapeError } from '../../adapters/store-escape.ts';

/** Taken when this module loads: a store that fakes the global one cannot stop the yield below. */
const realSetImmediate = setImmediate;

interface Watched {
  readonly call: string;
  /** Execute: the call rejects with it at once. Lifecycle, snapshot, restore, close: left for the next execute. */
  readonly rejects: boolean;
  escaped: StoreEscapeError | null;
  reject(error: StoreEscapeError): void;
}

let openStores = 0;
const inFlight: Watched[] = [];
let lastCall: string | null = null;
let pending: StoreEscapeError | null = null;

/** A user's store was opened (its calls are now watched), and later closed. */
export function storeOpened(): () => void {
  openStores++;
  let closed = false;
  return () => {
    if (!closed) (closed = true), openStores--;
  };
}

/**
 * What the process handlers do with an error no call awaited: while a user's store is open it is
 * the store's (true: taken, the command goes on); otherwise false, and the handler ends the command.
 */
export function takeStray(error: unknown, how: 'uncaught exception' | 'unhandled rejection'): boolean {
  if (openStores === 0) return false;
  const current = inFlight[inFlight.length - 1];
  const call = current?.call ?? (lastCall === null ? 'the opening of the store' : `after ${lastCall}`);
  const source = how === 'uncaught exception' ? 'an exception no call awaited, thrown from a timer or callback' : 'a promise rejected with no handler';
  const escape = new StoreEscapeError({ call, source }, error);
  if (current === undefined || !current.rejects) pending ??= escape;
  else current.reject(escape);
  return true;
}

/**
 * Runs the store call `call`; an error escaping meanwhile is thrown from it (`rejects`, an execute)
 * or kept for the next execute. A rejection the call left unhandled is reported by Node once the
 * microtasks drain, so the call's answer waits one turn of the event loop for it.
 */
export async function watchCall<T>(call: string, rejects: boolean, work: () => Promise<T>): Promise<T> {
  if (rejects) throwPending();
  let reject!: (error: StoreEscapeError) => void;
  const escaped = new Promise<never>((_, no) => (reject = no));
  escaped.catch(() => {});
  const watched: Watched = {
    call,
    rejects,
    escaped: null,
    reject(error) {
      watched.escaped ??= error;
      reject(error);
    },
  };
  inFlight.push(watched);
  try {
    const answer = await Promise.race([work(), escaped]);
    await new Promise<void>((resolve) => realSetImmediate(resolve));
    if (watched.escaped !== null) throw watched.escaped;
    return answer;
  } finally {
    inFlight.splice(inFlight.indexOf(watched), 1);
    lastCall = call;
  }
}

/** Throws an escape no execute was left to throw (the store is closing): the run cannot pass over it. */
export function throwPending(): void {
  const error = pending;
  pending = null;
  if (error !== null) throw error;
}

/**
 * An escape no call was left to throw, taken off the list: the command ended with it unheard. A
 * command that would otherwise pass cannot, so main ends it undecided, naming it.
 */
export function unthrownEscape(): StoreEscapeError | null {
  const error = pending;
  pending = null;
  return error;
}
