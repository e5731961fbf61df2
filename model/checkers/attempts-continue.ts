// attempts-continue (seed 001 §76–§77, §276: existing valid job attempts continue according to DB
// lease semantics; §73: coordination strengthens the database's invariants, it does not replace
// them): a scheduled job's attempt runs under its database lease, not under its leader's role. An
// attempt that gives its job back (ReturnJob) must first have had the store's word against it: its
// protected write not Accepted, its lease confirmation not Renewed, three confirmations sent (the
// confirmation gives up when every answer came too late to act on, sim/lease-protocol.ts), a
// call left without an answer, or, on a store whose renewals only confirm (its `renewal` record), a
// confirmation that did not extend its lease: the lease ends where it was, and the attempt with it.
// On such a store, a give-up after that confirmation is not judged, for any reason. An attempt that gives up otherwise, because its leader lost the
// role, breaks the rule. Judged where the role is the scheduler's: a release or deployment
// coordinator's promotion needs its role guard, so its attempts stop with the role.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { indicesOf, pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';
import { renewalsOnlyConfirm } from './renewal-kind.ts';

const INVARIANT = 'attempts-continue';

/** How many confirmations the lease protocol sends before it gives up on answers that came too late. */
const CONFIRMATION_ROUNDS = 3;

/** Whether, before `before`, the store refused the attempt's write or lease, left a call unanswered, was sent every confirmation, or confirmed without extending. */
function refusedBefore(calls: ReadonlyArray<Operation>, before: number, confirming: boolean): boolean {
  const earlier = calls.filter((op) => op.invoke.index < before);
  if (earlier.filter((op) => op.f === 'Renew').length >= CONFIRMATION_ROUNDS) return true;
  return earlier.some((op) => {
    if (op.completion === null || op.completion.type !== 'ok') return true;
    const kind = (op.completion.value as { readonly kind?: unknown } | null)?.kind;
    return (op.f === 'Mutate' && kind !== 'Accepted') || (op.f === 'Renew' && (kind !== 'Renewed' || (confirming && unextended(op))));
  });
}

/**
 * A Renewed lease that ends no later than its grant plus the renewal's TTL: the store confirmed the
 * lease without extending it (an extension at store time t ends at t + ttl, after the grant).
 */
function unextended(op: Operation): boolean {
  const lease = (op.completion?.value as { readonly lease?: { readonly acquiredAt?: unknown; readonly expiresAt?: unknown } } | null)?.lease;
  const ttlMs = (op.invoke.value as { readonly ttlMs?: unknown } | null)?.ttlMs;
  if (typeof lease?.acquiredAt !== 'number' || typeof lease.expiresAt !== 'number' || typeof ttlMs !== 'number') return false;
  return lease.expiresAt <= lease.acquiredAt + ttlMs;
}

export function attemptsContinue(history: History): Verdict {
  const operations = pairOperations(history);
  const roles = new Set(storeOps(operations, 'AdvanceRoleEpoch').map(({ command }) => command.role));
  if (roles.size !== 1 || !roles.has('scheduler')) return verdictOf([]);
  const byProcess = new Map<string, Operation[]>();
  for (const op of operations) byProcess.set(op.process, [...(byProcess.get(op.process) ?? []), op]);
  const confirming = renewalsOnlyConfirm(history);
  const violations: Violation[] = [];
  for (const { op, command } of storeOps(operations, 'ReturnJob')) {
    if (refusedBefore(byProcess.get(op.process) ?? [], op.invoke.index, confirming)) continue;
    violations.push(violation(INVARIANT, `${op.process} gave job ${command.jobId} back (#${op.invoke.index}) though the store had refused neither its write nor its lease: an attempt under a valid lease gave up its work`, indicesOf(op)));
  }
  return verdictOf(violations);
}
