// unknown-not-new (seed 000 §52–§53, §285): once an idempotency key's outcome is recorded as
// Unknown, a request with the same digest is never answered New while that record lives, unless
// a later IdempotencyComplete resolved it. Linking provider effects to keys is not judged here:
// the history does not carry the idempotency key on `effect` operations.

import type { IdempotencyKeyRef } from '../commands.ts';
import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { certainlyLive, describeKey, latestCreation, recordKey } from './idempotency-records.ts';
import { endOf, indicesOf, pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'unknown-not-new';

/** A record together with the request digest it answers for. */
function id(ref: IdempotencyKeyRef): string {
  return `${recordKey(ref)}${ref.digest}`;
}

interface Mark {
  readonly id: string;
  readonly op: Operation;
  readonly what: string;
}

export function unknownNotNew(history: History): Verdict {
  const operations = pairOperations(history);
  const begins = storeOps(operations, 'IdempotencyBegin');
  const completes = storeOps(operations, 'IdempotencyComplete');
  const unknowns: Mark[] = [];
  const resolutions: Mark[] = [];
  for (const { op, command, outcome } of completes) {
    const recorded = outcome?.kind === 'Recorded';
    if (command.outcome.kind === 'Unknown') {
      if (recorded) unknowns.push({ id: id(command), op, what: 'IdempotencyComplete recorded Unknown' });
    } else if (recorded || (op.completion?.type !== 'fail' && outcome === null)) {
      // A resolving Complete whose own outcome is unknown may have landed: it counts.
      resolutions.push({ id: id(command), op, what: `IdempotencyComplete ${command.outcome.kind}` });
    }
  }
  for (const { op, command, outcome } of begins) if (outcome?.kind === 'Unknown') unknowns.push({ id: id(command), op, what: 'IdempotencyBegin answered Unknown' });

  const violations: Violation[] = [];
  for (const begin of begins) {
    const ok = begin.op.completion;
    if (begin.outcome?.kind !== 'New' || ok === null) continue;
    const key = id(begin.command);
    const marks = unknowns.filter((mark) => mark.id === key && endOf(mark.op) < begin.op.invoke.index);
    const mark = marks.reduce<Mark | undefined>((latest, m) => (latest === undefined || endOf(m.op) > endOf(latest.op) ? m : latest), undefined);
    if (mark === undefined) continue;
    const resolved = resolutions.some((r) => r.id === key && r.op.invoke.index < ok.index && endOf(r.op) > mark.op.invoke.index);
    if (resolved) continue;
    const creation = latestCreation(begins, begin.command, endOf(mark.op), begin.command.digest);
    // Without the creating Begin the retention is unknown; such a record is not judged.
    if (creation === undefined || !certainlyLive(creation, begin.op)) continue;
    violations.push(
      violation(
        INVARIANT,
        `${describeKey(begin.command)} digest ${begin.command.digest}: answered New at #${ok.index} after ${mark.what} (#${endOf(mark.op)}); the record created at #${creation.op.invoke.index} (retention ${creation.command.retentionMs} ms) was still live and unresolved`,
        [...indicesOf(mark.op), ...indicesOf(begin.op)],
      ),
    );
  }
  return verdictOf(violations);
}
