// Idempotency keys (§43–§58, §178–§190, §283–§285): a key is scoped by tenant, operation and
// subject; the same key with a different request digest is always a conflict; an Unknown outcome
// is never turned into a new operation (§53) — only an explicit completion resolves it.

import { assert } from './assert.ts';
import type { IdempotencyBeginCommand, IdempotencyCompleteCommand, IdempotencyKeyRef } from './commands.ts';
import type { IdempotencyBeginResult, IdempotencyCompleteResult, IdempotencyRecord } from './outcomes.ts';
import { mapWith } from './persistent.ts';
import type { ModelState, Transition } from './state.ts';
import { isValidId, isValidRetention } from './validation.ts';

/** Length-prefixed (tenant, operation, subject): injective, so two domains never share records. */
export function idempotencyDomain(ref: Pick<IdempotencyKeyRef, 'tenant' | 'operation' | 'subject'>): string {
  return `${ref.tenant.length}:${ref.tenant}|${ref.operation.length}:${ref.operation}|${ref.subject.length}:${ref.subject}`;
}

/** The live record for this key (an expired record is absent). */
function findRecord(state: ModelState, ref: IdempotencyKeyRef, now: number): IdempotencyRecord | null {
  const record = state.idempotency.get(idempotencyDomain(ref))?.get(ref.key);
  return record !== undefined && now < record.expiresAt ? record : null;
}

function withRecord(state: ModelState, record: IdempotencyRecord): ModelState {
  const domain = idempotencyDomain(record);
  const byKey = mapWith(state.idempotency.get(domain) ?? new Map<string, IdempotencyRecord>(), record.key, record);
  return { ...state, idempotency: mapWith(state.idempotency, domain, byKey) };
}

function freshRecord(command: IdempotencyBeginCommand, now: number): IdempotencyRecord {
  return {
    tenant: command.tenant,
    operation: command.operation,
    subject: command.subject,
    key: command.key,
    digest: command.digest,
    state: 'InProgress',
    outcome: null,
    createdAt: now,
    expiresAt: now + command.retentionMs,
  };
}

/** The key's fields are ids and the retention is within bounds (every store checks this first). */
export function isValidBegin(command: IdempotencyBeginCommand): boolean {
  const ids = [command.tenant, command.operation, command.subject, command.key, command.digest];
  return ids.every(isValidId) && isValidRetention(command.retentionMs);
}

export function idempotencyBegin(state: ModelState, command: IdempotencyBeginCommand, now: number): Transition<IdempotencyBeginResult> {
  if (!isValidBegin(command)) return { state, outcome: { kind: 'Rejected', reason: 'invalid-argument' } };

  const record = findRecord(state, command, now);
  if (record === null) return { state: withRecord(state, freshRecord(command, now)), outcome: { kind: 'New' } };
  if (record.digest !== command.digest) return { state, outcome: { kind: 'Conflict', existingDigest: record.digest } };
  switch (record.state) {
    case 'InProgress':
      return { state, outcome: { kind: 'InProgress' } };
    case 'Unknown':
      return { state, outcome: { kind: 'Unknown' } };
    case 'Succeeded':
    case 'FailedTerminal': {
      assert(record.outcome !== null && record.outcome.kind === record.state, 'a final record carries its outcome');
      if (record.state === 'FailedTerminal' && command.retryAfterTerminal) {
        return { state: withRecord(state, freshRecord(command, now)), outcome: { kind: 'New' } };
      }
      return { state, outcome: { kind: 'Replay', outcome: record.outcome } };
    }
  }
}

export function idempotencyComplete(state: ModelState, command: IdempotencyCompleteCommand, now: number): Transition<IdempotencyCompleteResult> {
  const record = findRecord(state, command, now);
  if (record === null) return { state, outcome: { kind: 'NotFound' } };
  if (record.digest !== command.digest) return { state, outcome: { kind: 'Conflict', existingDigest: record.digest } };
  if (record.state === 'Succeeded' || record.state === 'FailedTerminal') {
    assert(record.outcome !== null, 'a final record carries its outcome');
    return { state, outcome: { kind: 'AlreadyFinal', outcome: record.outcome } };
  }
  const updated: IdempotencyRecord = { ...record, state: command.outcome.kind, outcome: command.outcome };
  return { state: withRecord(state, updated), outcome: { kind: 'Recorded' } };
}
