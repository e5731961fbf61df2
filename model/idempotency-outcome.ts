// What an idempotency record remembers about its operation (seed 000 §48–§53).

export type StoredOutcome =
  | { readonly kind: 'Succeeded'; readonly response: string }
  | { readonly kind: 'FailedTerminal'; readonly error: string }
  | { readonly kind: 'Unknown' };
