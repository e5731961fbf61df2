// The numeric bounds of the rule book (model/SEMANTICS.md "Constants"). Every store shares them.

/** Leases are bounded (§31): a ttl is an integer in 1..LEASE_TTL_MAX_MS. */
export const LEASE_TTL_MAX_MS = 600_000;
/** A waiter's effective priority grows by one per step waited (§92). */
export const AGING_STEP_MS = 1_000;
/** Explicit priority is an integer in -PRIORITY_LIMIT..PRIORITY_LIMIT (§91). */
export const PRIORITY_LIMIT = 1_000;
/** Semaphore capacity is an integer in 1..CAPACITY_MAX. */
export const CAPACITY_MAX = 10_000;
/** Idempotency retention (30 days) is an integer in 1..RETENTION_MAX_MS (§54). */
export const RETENTION_MAX_MS = 2_592_000_000;
/** Tokens issued under recovery epoch r are above r * TOKEN_EPOCH_STRIDE (§271–§274). */
export const TOKEN_EPOCH_STRIDE = 1_000_000_000;
/** Ids, keys and holders are 1..ID_MAX_LENGTH characters without control characters. */
export const ID_MAX_LENGTH = 256;
