// digest-conflict (seed 000 §46–§47, §284): a request on a live idempotency record with another
// request digest is always answered Conflict; New, Replay, InProgress or Unknown to a different
// digest (or a Complete recorded under one) silently reuses the key for another request.

import type { IdempotencyKeyRef } from '../commands.ts';
import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { certainlyLive, describeKey, latestCreation } from './idempotency-records.ts';
import { indicesOf, pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'digest-conflict';

const SILENT_REUSE = new Set(['New', 'Replay', 'InProgress', 'Unknown', 'Recorded', 'AlreadyFinal']);

export function digestConflict(history: History): Verdict {
  const operations = pairOperations(history);
  const begins = storeOps(operations, 'IdempotencyBegin');
  const requests: Array<{ op: Operation; command: IdempotencyKeyRef & { readonly kind: string }; answer: string }> = [];
  for (const { op, command, outcome } of [...begins, ...storeOps(operations, 'IdempotencyComplete')]) {
    if (outcome !== null && SILENT_REUSE.has(outcome.kind)) requests.push({ op, command, answer: outcome.kind });
  }
  const violations: Violation[] = [];
  for (const request of requests) {
    const creation = latestCreation(begins, request.command, request.op.invoke.index);
    if (creation === undefined || creation.command.digest === request.command.digest) continue;
    if (!certainlyLive(creation, request.op)) continue;
    violations.push(
      violation(
        INVARIANT,
        `${describeKey(request.command)}: ${request.command.kind} with digest ${request.command.digest} answered ${request.answer} (#${request.op.completion?.index}) while the record created with digest ${creation.command.digest} (#${creation.op.completion?.index}) was live; expected Conflict`,
        [...indicesOf(creation.op), ...indicesOf(request.op)],
      ),
    );
  }
  return verdictOf(violations);
}
