// Idempotency keys (seed 000 §43–§54). idempotency-new-once: a key never begins as New a second
// time while its first record is in progress or final, that is within its retention (the
// second New was invoked less than the retention after the first's reply) unless the second asked
// to retry after a terminal failure that may have been recorded first. digest-conflict: once a key
// has begun with one digest, a request with another digest is answered Conflict (or Rejected).
// One pass per key over its Begins in invocation order.

import type { IdempotencyBeginCommand } from '../../../model/commands.ts';
import { groupBy, mayHaveApplied, type StressHistory, type StressOp } from '../history.ts';
import { mayPrecede, named, violation, type StressViolation } from '../violation.ts';

export const IDEMPOTENCY_NEW_ONCE = 'idempotency-new-once';
export const DIGEST_CONFLICT = 'digest-conflict';

type Begin = StressOp & { command: IdempotencyBeginCommand };

const keyOf = (c: { tenant: string; operation: string; subject: string; key: string }): string => `${c.tenant}/${c.operation}/${c.subject}/${c.key}`;

export function checkIdempotency(history: StressHistory): StressViolation[] {
  const found: StressViolation[] = [];
  const terminal = groupBy(
    mayHaveApplied(history, 'IdempotencyComplete').filter((op) => op.command.outcome.kind === 'FailedTerminal'),
    (op) => keyOf(op.command),
  );
  const begins = history.filter((op): op is Begin => op.status === 'ok' && op.command.kind === 'IdempotencyBegin');
  for (const [key, ofKey] of groupBy(begins, (op) => keyOf(op.command))) {
    const ordered = [...ofKey].sort((a, b) => a.invokedAt - b.invokedAt);
    let first: Begin | null = null;
    for (const begin of ordered) {
      const kind = begin.outcome?.kind;
      if (first !== null && begin.invokedAt - first.completedAt < first.command.retentionMs) {
        const retried = begin.command.retryAfterTerminal && (terminal.get(key) ?? []).some((t) => mayPrecede(t, begin));
        if (kind === 'New' && !retried) {
          found.push(violation(IDEMPOTENCY_NEW_ONCE, key, [first, begin], `key ${key}: ${named(begin)} began as New while the record begun by ${named(first)} was in progress or final`));
        }
        const otherDigest = begin.command.digest !== first.command.digest;
        if (otherDigest && first.completedAt < begin.invokedAt && kind !== 'Conflict' && kind !== 'Rejected') {
          found.push(
            violation(DIGEST_CONFLICT, key, [first, begin], `key ${key}: ${named(begin)} with digest ${begin.command.digest} answered ${kind} after ${named(first)} began it with digest ${first.command.digest}`),
          );
        }
      }
      if (kind === 'New') first = begin;
    }
  }
  return found;
}
