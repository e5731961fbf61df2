// idempotency-scope (seed 000 §43–§45, "Key meaning is scoped": a record is identified by tenant,
// operation, subject and key): an answer that speaks of an existing record — Replay, InProgress,
// Unknown or Conflict — needs another IdempotencyBegin on that same record, invoked before the
// answer came back. The record can exist only if some request for it reached the store, so such
// an answer with none before it was about another tenant's, operation's or subject's record: a
// request lost to a key reused elsewhere, or another caller's outcome handed out.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { describeKey, recordKey } from './idempotency-records.ts';
import { indicesOf, pairOperations, storeOps } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'idempotency-scope';

/** Answers that presuppose an existing record of the request's identity. */
const EXISTING = new Set(['Replay', 'InProgress', 'Unknown', 'Conflict']);

export function idempotencyScope(history: History): Verdict {
  const begins = storeOps(pairOperations(history), 'IdempotencyBegin');
  // The first two Begins invoked on each record: a record exists only after one of them.
  const firstTwo = new Map<string, number[]>();
  for (const { op, command } of begins) {
    const key = recordKey(command);
    const seen = firstTwo.get(key);
    if (seen === undefined) firstTwo.set(key, [op.invoke.index]);
    else if (seen.length < 2) seen.push(op.invoke.index);
  }
  const violations: Violation[] = [];
  for (const { op, command, outcome } of begins) {
    if (outcome === null || op.completion === null || !EXISTING.has(outcome.kind)) continue;
    // Another request on this record, invoked before this one completed, may have created it
    // (a concurrent one too: it may have reached the store first).
    const other = firstTwo.get(recordKey(command))!.find((index) => index !== op.invoke.index);
    if (other !== undefined && other < op.completion.index) continue;
    const message = `${describeKey(command)}: IdempotencyBegin by ${op.process} (#${op.completion.index}) answered ${outcome.kind}, but no other request on this record reached the store before it`;
    violations.push(violation(INVARIANT, message, indicesOf(op)));
  }
  return verdictOf(violations);
}
