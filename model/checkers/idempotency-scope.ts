// idempotency-scope (seed 000 §44–§45, "Key meaning is scoped": a record is identified by tenant,
// operation, subject and key; §47, never silently reuse a key): an answer that speaks of an
// existing record must be about a record of the request's own identity, as other requests on that
// identity, invoked before the answer came back, can have made it:
// - InProgress: another Begin on the record;
// - Conflict: another Begin on the record carrying the digest the answer names;
// - Unknown: a Complete with an Unknown outcome on the record and digest;
// - Replay: a Complete on the record and digest with the very outcome replayed.
// An answer without such requests was taken from another tenant's, operation's or subject's
// record: the request never ran, or another caller's outcome was handed out.

import { sameData } from '../data-equal.ts';
import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { describeKey, recordKey } from './idempotency-records.ts';
import { indicesOf, pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'idempotency-scope';

interface Request {
  readonly op: Operation;
  readonly digest: string;
  /** The outcome a Complete recorded (null for a Begin). */
  readonly outcome: unknown;
}

export function idempotencyScope(history: History): Verdict {
  const operations = pairOperations(history);
  const begins = byRecord(storeOps(operations, 'IdempotencyBegin').map(({ op, command }) => ({ key: recordKey(command), request: { op, digest: command.digest, outcome: null } })));
  const completes = byRecord(storeOps(operations, 'IdempotencyComplete').map(({ op, command }) => ({ key: recordKey(command), request: { op, digest: command.digest, outcome: command.outcome } })));
  const violations: Violation[] = [];
  for (const { op, command, outcome } of storeOps(operations, 'IdempotencyBegin')) {
    if (outcome === null || op.completion === null) continue;
    const before = op.completion.index;
    // Requests on the same record, other than this one, invoked before its answer came back.
    const earlier = (list: ReadonlyArray<Request> | undefined): ReadonlyArray<Request> => (list ?? []).filter((r) => r.op !== op && r.op.invoke.index < before);
    const key = recordKey(command);
    let missing: string | null = null;
    switch (outcome.kind) {
      case 'InProgress':
        if (earlier(begins.get(key)).length === 0) missing = 'no other request on this record';
        break;
      case 'Conflict':
        if (!earlier(begins.get(key)).some((r) => r.digest === outcome.existingDigest)) missing = `no request on this record with digest ${outcome.existingDigest}`;
        break;
      case 'Unknown':
        if (!earlier(completes.get(key)).some((r) => r.digest === command.digest && sameData(r.outcome, { kind: 'Unknown' }))) missing = 'no Complete with an Unknown outcome on this record';
        break;
      case 'Replay':
        if (!earlier(completes.get(key)).some((r) => r.digest === command.digest && sameData(r.outcome, outcome.outcome))) missing = `no Complete on this record recorded ${JSON.stringify(outcome.outcome)}`;
        break;
    }
    if (missing === null) continue;
    const message = `${describeKey(command)}: IdempotencyBegin by ${op.process} (#${before}) answered ${outcome.kind}, but ${missing} reached the store before it`;
    violations.push(violation(INVARIANT, message, indicesOf(op)));
  }
  return verdictOf(violations);
}

function byRecord(entries: ReadonlyArray<{ readonly key: string; readonly request: Request }>): Map<string, Request[]> {
  const map = new Map<string, Request[]>();
  for (const { key, request } of entries) {
    const list = map.get(key);
    if (list === undefined) map.set(key, [request]);
    else list.push(request);
  }
  return map;
}
