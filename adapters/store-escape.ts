// An error that escaped a store's library: thrown from one of its timers, or a promise it left
// rejected with no handler. No call awaited it, so no call can answer with it; the testbed turns
// it into a finding about the store (docs/ARCHITECTURE.md "Errors that escape a store"): the next
// store call throws this error, which a simulated run reports as a `port-contract` finding and the
// command-level check as a divergence, naming the call that was in flight when it escaped.

import type { CallContext } from './port.ts';

/** Where an escaped error came from: the call in flight, and what threw when known. */
export interface EscapeSite {
  /** The store call in flight when the error escaped, as `describeStoreCall` names it. */
  readonly call: string;
  /** What threw, when the testbed knows it (a timer of the kit's clock at its virtual time), else null. */
  readonly source: string | null;
}

export class StoreEscapeError extends Error {
  override readonly name = 'StoreEscapeError';

  constructor(
    readonly site: EscapeSite,
    override readonly cause: unknown,
  ) {
    super(`an error escaped the store during ${site.call}${site.source === null ? '' : ` (from ${site.source})`}: ${oneLine(cause)}`);
  }
}

/** A store call in words: `Acquire from c1#2`, `lifecycle crash of c1#1`, `Inspect` (no process). */
export function describeStoreCall(what: string, call?: CallContext | null): string {
  return call === undefined || call === null ? what : `${what} from ${call.process}`;
}

/** A lifecycle event in the same words: `lifecycle cut-off of c1#1`, `lifecycle database-crash`. */
export function describeLifecycle(event: { readonly kind: string; readonly process: string | null }): string {
  return `lifecycle ${event.kind}${event.process === null ? '' : ` of ${event.process}`}`;
}

function oneLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? 'unknown error';
}

/**
 * Whether `error` is a StoreEscapeError, by name: a store module may load its own copy of this
 * file (a TypeScript loader, a packed testbed beside a checkout), and its errors must still be known.
 */
export function isStoreEscape(error: unknown): error is StoreEscapeError {
  return error instanceof Error && error.name === 'StoreEscapeError';
}
