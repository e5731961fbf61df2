// idempotency-final (seed 000 §45, §48–§51: a record keeps its request's outcome, and a
// Succeeded record "returns the stored semantic outcome"; the rule book's IdempotencyComplete: a
// final record answers AlreadyFinal and changes nothing): once the store has answered that a record
// is final with outcome O — a Complete of a Succeeded or FailedTerminal outcome answered Recorded,
// an AlreadyFinal { O }, a Replay { O } — every later request on that record with the same digest
// is answered from O while the record certainly lives: a Begin with Replay { O } (or New, when O
// failed terminally and the Begin allows a retry after it), a Complete with AlreadyFinal { O }. A
// later Recorded, another outcome, InProgress or Unknown means a write overwrote the acknowledged
// outcome: an update was lost.
//
// "Later" is real-time order: the request is invoked after the answer that showed O came back. The
// record certainly lives while the request came back before the latest creation's invoke time plus
// its retention (idempotency-records.ts); a record without a creation in the history is not judged.
// Not judged across a failover or restore that happened between the two (the image may predate
// O), nor after a Begin that may have restarted a terminally failed record (one allowing a retry,
// not refused, in flight between the two).

import { sameData } from '../data-equal.ts';
import type { IdempotencyKeyRef } from '../commands.ts';
import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { certainlyLive, describeKey, latestCreation, recordKey } from './idempotency-records.ts';
import { asFields, endOf, faultsOf, indicesOf, pairOperations, storeOps, type Operation, type StoreOp } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'idempotency-final';

/** An answer that showed a record final, with the outcome it showed. */
interface Shown {
  readonly op: Operation;
  readonly ref: IdempotencyKeyRef & { readonly digest: string };
  readonly outcome: { readonly kind: string };
}

/** A request on a record after it was shown final, with what the store answered. */
interface Asked {
  readonly op: Operation;
  readonly ref: IdempotencyKeyRef & { readonly digest: string };
  readonly answer: { readonly kind: string; readonly outcome?: unknown };
  readonly retryAfterTerminal: boolean;
}

function isFinal(outcome: { readonly kind: string }): boolean {
  return outcome.kind === 'Succeeded' || outcome.kind === 'FailedTerminal';
}

function shownFinal(begins: ReadonlyArray<StoreOp<'IdempotencyBegin'>>, completes: ReadonlyArray<StoreOp<'IdempotencyComplete'>>): ReadonlyArray<Shown> {
  const shown: Shown[] = [];
  for (const { op, command, outcome } of completes) {
    if (outcome?.kind === 'Recorded' && isFinal(command.outcome)) shown.push({ op, ref: command, outcome: command.outcome });
    if (outcome?.kind === 'AlreadyFinal') shown.push({ op, ref: command, outcome: outcome.outcome });
  }
  for (const { op, command, outcome } of begins) if (outcome?.kind === 'Replay') shown.push({ op, ref: command, outcome: outcome.outcome });
  return shown;
}

function asked(begins: ReadonlyArray<StoreOp<'IdempotencyBegin'>>, completes: ReadonlyArray<StoreOp<'IdempotencyComplete'>>): ReadonlyArray<Asked> {
  const all: Asked[] = [];
  for (const { op, command, outcome } of begins) if (outcome !== null) all.push({ op, ref: command, answer: outcome, retryAfterTerminal: command.retryAfterTerminal });
  for (const { op, command, outcome } of completes) if (outcome !== null) all.push({ op, ref: command, answer: outcome, retryAfterTerminal: false });
  return all;
}

/** Why `answer` does not come from the final outcome `outcome`, or null when it does. */
function departure(answer: Asked, outcome: { readonly kind: string }): string | null {
  const { kind } = answer.answer;
  if (kind === 'Replay' || kind === 'AlreadyFinal') return sameData(answer.answer.outcome, outcome) ? null : `${kind} ${JSON.stringify(answer.answer.outcome)}`;
  if (kind === 'New' && outcome.kind === 'FailedTerminal' && answer.retryAfterTerminal) return null;
  // Conflict (another digest) and Rejected (invalid arguments) say nothing of this record's outcome.
  if (kind === 'Conflict' || kind === 'Rejected') return null;
  return kind;
}

/** A Begin allowing a retry after a terminal failure, not refused, that may have run between `from` and `to`. */
function mayRestart(begins: ReadonlyArray<StoreOp<'IdempotencyBegin'>>, key: string, digest: string, from: Operation, to: Operation): boolean {
  return begins.some(({ op, command, outcome }) =>
    command.retryAfterTerminal && recordKey(command) === key && command.digest === digest && op.completion?.type !== 'fail'
    && (outcome === null || outcome.kind === 'New') && op.invoke.index < endOf(to) && endOf(op) > from.invoke.index);
}

export function idempotencyFinal(history: History): Verdict {
  const operations = pairOperations(history);
  const begins = storeOps(operations, 'IdempotencyBegin');
  const completes = storeOps(operations, 'IdempotencyComplete');
  const replaced = faultsOf(history, ['db-restore', 'db-failover']).filter((f) => asFields(f.value)?.skipped !== true).map((f) => f.index);
  const requests = new Map<string, Asked[]>();
  for (const request of asked(begins, completes)) requests.set(recordKey(request.ref), [...(requests.get(recordKey(request.ref)) ?? []), request]);
  const violations: Violation[] = [];
  const judged = new Set<Operation>();
  for (const shown of shownFinal(begins, completes)) {
    const shownAt = shown.op.completion!.index;
    const key = recordKey(shown.ref);
    const creation = latestCreation(begins, shown.ref, shownAt, shown.ref.digest);
    if (creation === undefined) continue;
    for (const request of requests.get(key) ?? []) {
      if (judged.has(request.op) || request.op.invoke.index <= shownAt || request.ref.digest !== shown.ref.digest) continue;
      if (!certainlyLive(creation, request.op)) continue;
      if (replaced.some((index) => index > shown.op.invoke.index && index < endOf(request.op))) continue;
      if (shown.outcome.kind === 'FailedTerminal' && mayRestart(begins, key, shown.ref.digest, shown.op, request.op)) continue;
      const wrong = departure(request, shown.outcome);
      if (wrong === null) continue;
      judged.add(request.op);
      violations.push(
        violation(
          INVARIANT,
          `${describeKey(shown.ref)} digest ${shown.ref.digest}: the store showed it final with ${JSON.stringify(shown.outcome)} (#${shownAt}); a ${request.op.f} invoked after that (#${request.op.invoke.index}) was answered ${wrong}`,
          [...indicesOf(shown.op), ...indicesOf(request.op)],
        ),
      );
    }
  }
  return verdictOf(violations);
}
