// What the stress clients contend for: a few lease scopes (one aggregate each), a semaphore or
// two and idempotency keys that change every few hundred milliseconds, all few enough that clients
// collide on them all the time. It grows slowly with the number of clients, so that each lease
// scope keeps about eight contenders and each semaphore about thirty.

export interface StressWorld {
  readonly scopes: ReadonlyArray<string>;
  readonly aggregate: string;
  readonly semaphores: ReadonlyArray<string>;
  readonly capacity: number;
  readonly tenant: string;
  readonly operation: string;
  readonly subject: string;
  /** Keys in use at once; the set moves on every `keyPeriodMs`. */
  readonly keysAtOnce: number;
  readonly keyPeriodMs: number;
  /** Longer than any run: a record stays in progress or final for the whole run. */
  readonly retentionMs: number;
  readonly ttlMs: { readonly min: number; readonly max: number };
  /** Scopes of the side workflows (side-flows.ts): jobs, handoffs, forced releases, waiters, intents. No judged workflow uses them. */
  readonly sideScopes: ReadonlyArray<string>;
  /** A semaphore the side workflows redefine; no permit or reservation is taken on it. */
  readonly sideSemaphore: string;
  /** The role whose epoch the side workflows raise; no judged command carries a guard. */
  readonly sideRole: string;
  /** Lease scopes only the first client's opening tour (side-flows.ts sideTour) uses. */
  readonly tourScopes: ReadonlyArray<string>;
}

export function stressWorld(clients: number, durationMs: number): StressWorld {
  const scopeCount = Math.max(2, Math.ceil(clients / 8));
  const semaphoreCount = Math.ceil(clients / 32);
  return {
    scopes: Array.from({ length: scopeCount }, (_, i) => `scope-${i + 1}`),
    aggregate: 'aggregate',
    semaphores: Array.from({ length: semaphoreCount }, (_, i) => `semaphore-${i + 1}`),
    capacity: 3,
    tenant: 'tenant',
    operation: 'pay',
    subject: 'order',
    keysAtOnce: 3,
    keyPeriodMs: 250,
    retentionMs: Math.max(600_000, 2 * durationMs + 60_000),
    ttlMs: { min: 20, max: 80 },
    sideScopes: ['side-1', 'side-2'],
    sideSemaphore: 'side-semaphore',
    sideRole: 'side-role',
    tourScopes: ['tour-1', 'tour-2'],
  };
}
