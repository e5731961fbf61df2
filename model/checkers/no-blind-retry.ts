// no-blind-retry (seed 000 §64–§65, §191–§194, §285, §288): a non-idempotent effect whose outcome
// is unknown is inspected, and found not applied, before anything re-issues it; a ManualOnly
// effect is never re-issued automatically; and the provider never applies one intent twice.

import type { RetrySafety } from '../effect-state.ts';
import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { booleanField, controllerOps, effectOutcome, endOf, indicesOf, isTruth, pairOperations, requireString, stringField, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'no-blind-retry';

function retrySafetyOf(op: Operation): RetrySafety {
  return requireString(op.invoke.value, 'retrySafety', op.invoke.index) as RetrySafety;
}

/** An inspect of the intent, invoked after `after` and completed ok before `before`, that found it not applied. */
function clearingInspect(inspects: ReadonlyArray<Operation>, after: number, before: number): Operation | undefined {
  return inspects.find(
    (inspect) =>
      inspect.invoke.index > after &&
      inspect.completion?.type === 'ok' &&
      inspect.completion.index < before &&
      booleanField(inspect.completion.value, 'applied') === false,
  );
}

export function noBlindRetry(history: History): Verdict {
  const operations = pairOperations(history);
  const violations: Violation[] = [];
  const attempts = new Map<string, Operation[]>();
  for (const op of controllerOps(operations, 'effect')) {
    const intentId = requireString(op.invoke.value, 'intentId', op.invoke.index);
    attempts.set(intentId, [...(attempts.get(intentId) ?? []), op]);
  }
  const inspects = new Map<string, Operation[]>();
  for (const op of controllerOps(operations, 'inspect')) {
    const intentId = requireString(op.invoke.value, 'intentId', op.invoke.index);
    inspects.set(intentId, [...(inspects.get(intentId) ?? []), op]);
  }
  // Applying an Idempotent operation twice is harmless by declaration (§192); a ProviderIdempotent
  // one applied twice means the provider broke its promise, which is still a duplicate effect.
  const idempotent = new Set<string>();
  for (const [intentId, ops] of attempts) {
    if (ops.some((op) => retrySafetyOf(op) === 'Idempotent')) idempotent.add(intentId);
    for (let n = 1; n < ops.length; n += 1) {
      const previous = ops[n - 1];
      const retry = ops[n];
      if (previous === undefined || retry === undefined) continue;
      const safety = retrySafetyOf(retry);
      if (safety === 'Idempotent' || safety === 'ProviderIdempotent') continue;
      const what = `intent ${intentId} (${safety}) re-issued by ${retry.process} at #${retry.invoke.index}`;
      if (safety === 'ManualOnly') {
        violations.push(violation(INVARIANT, `${what}: ManualOnly effects are never retried automatically (earlier attempt #${previous.invoke.index})`, [...indicesOf(previous), retry.invoke.index]));
        continue;
      }
      // An attempt still in flight when the retry was issued was unknown at that moment, whatever it later said.
      const known = endOf(previous) < retry.invoke.index ? effectOutcome(previous) : 'unknown';
      if (known === 'not-applied') continue;
      if (known === 'applied') {
        violations.push(violation(INVARIANT, `${what} after attempt #${previous.invoke.index} was applied`, [...indicesOf(previous), retry.invoke.index]));
        continue;
      }
      const observedAt = previous.completion?.index ?? previous.invoke.index;
      if (clearingInspect(inspects.get(intentId) ?? [], observedAt, retry.invoke.index) !== undefined) continue;
      violations.push(
        violation(INVARIANT, `${what} after attempt #${previous.invoke.index} by ${previous.process} had an unknown outcome, with no inspect reporting it not applied in between`, [...indicesOf(previous), retry.invoke.index]),
      );
    }
  }
  const appliedAt = new Map<string, number>();
  for (const event of history) {
    if (!isTruth(event) || event.f !== 'effect-applied') continue;
    // Ground truth without an intent id is a malformed history: undecidable, never a silent pass.
    const intentId = requireString(event.value, 'intentId', event.index);
    const first = appliedAt.get(intentId);
    if (first === undefined) {
      appliedAt.set(intentId, event.index);
      continue;
    }
    if (idempotent.has(intentId)) continue;
    violations.push(violation(INVARIANT, `provider applied intent ${intentId} twice: #${first} and #${event.index}`, [first, event.index], stringField(event.value, 'scope')));
  }
  return verdictOf(violations);
}
