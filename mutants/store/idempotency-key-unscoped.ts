// idempotency-key-unscoped — seed 000 §44–§45 ("Key meaning is scoped": tenant, operation and
// subject are part of the record's identity), §47 (never silently reuse a key for a semantically
// different request). The store looks idempotency records up by key alone, as a unique constraint
// on the key column would: a request of another tenant, operation or subject that reuses a key is
// answered with that other record (Replay of someone else's outcome, InProgress, Conflict), and
// the request itself never runs.

import { modelMutant } from './model-store.ts';

/** Every record filed under one scope: only the key tells records apart. */
const ANY = { tenant: 'any-tenant', operation: 'any-operation', subject: 'any-subject' } as const;

export const idempotencyKeyUnscoped = modelMutant('idempotency-key-unscoped', ['IdempotencyBegin', 'IdempotencyComplete'], (state, command, now, reference) => reference(state, { ...command, ...ANY }, now));
