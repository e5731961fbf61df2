// The idempotency records a history shows being created, for the checkers that judge answers to
// later requests on the same key (§43–§58). A record is created by a Begin answered New; its
// store time of creation lies between that Begin's invoke and ok times, so it is certainly
// still live for any request completed before `invoke time + retentionMs`.

import type { IdempotencyKeyRef } from '../commands.ts';
import type { Operation, StoreOp } from './operations.ts';

/** The record identity: (tenant, operation, subject, key), without the digest. */
export function recordKey(ref: IdempotencyKeyRef): string {
  return JSON.stringify([ref.tenant, ref.operation, ref.subject, ref.key]);
}

export function describeKey(ref: IdempotencyKeyRef): string {
  return `key ${ref.tenant}/${ref.operation}/${ref.subject}/${ref.key}`;
}

/** The latest Begin answered New on the same record that completed before `before`. */
export function latestCreation(
  begins: ReadonlyArray<StoreOp<'IdempotencyBegin'>>,
  ref: IdempotencyKeyRef,
  before: number,
  digest?: string,
): StoreOp<'IdempotencyBegin'> | undefined {
  const key = recordKey(ref);
  let latest: StoreOp<'IdempotencyBegin'> | undefined;
  for (const begin of begins) {
    if (begin.outcome?.kind !== 'New' || begin.op.completion === null || begin.op.completion.index >= before) continue;
    if (recordKey(begin.command) !== key || (digest !== undefined && begin.command.digest !== digest)) continue;
    if (latest === undefined || begin.op.completion.index > (latest.op.completion?.index ?? -1)) latest = begin;
  }
  return latest;
}

/** True when the record created by `creation` had certainly not expired when `request` took effect. */
export function certainlyLive(creation: StoreOp<'IdempotencyBegin'>, request: Operation): boolean {
  const latestEffect = request.completion?.time ?? Number.POSITIVE_INFINITY;
  return latestEffect < creation.op.invoke.time + creation.command.retentionMs;
}
