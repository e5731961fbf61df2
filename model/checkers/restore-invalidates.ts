// restore-invalidates (seed 000 §272–§276, §297): after a `db-restore` or `db-failover` fault no
// write is accepted under a token issued before the fault, and the scopes the fault lists in
// `blockedScopes` grant no new lease until a ReconcileScope answered Reconciled (or one whose
// outcome is unknown) may have unblocked them. A provider effect the holder decided on the store's
// word from before the fault is not judged here (see decidedBefore).

import { assert } from '../assert.ts';
import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { acceptedWrites, type AcceptedWrite } from './accepted-writes.ts';
import { leaseGrants, type LeaseGrant } from './lease-grants.ts';
import type { Placed } from './real-time-order.ts';
import { asFields, controllerOps, endOf, faultsOf, indicesOf, pairOperations, stringField, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'restore-invalidates';

/** The scope lists a fault value carries in `blockedScopes` (absent means none). */
function blockedScopesOf(value: unknown, index: number): ReadonlyArray<string> {
  const field = asFields(value)?.['blockedScopes'];
  if (field === undefined) return [];
  assert(Array.isArray(field) && field.every((scope) => typeof scope === 'string'), `#${index}: blockedScopes is a list of scopes`);
  return field as ReadonlyArray<string>;
}

/**
 * A provider effect is the holder's decision, made on the store's last word to it. Where its call
 * began before the fault, it was already on its way. Where the holder heard nothing from the store
 * about that scope after the fault, its last confirmation of the lease (the latest grant or renewal
 * to that holder, scope and token answered before the call) was asked before the fault, and the
 * call fell within the lease that confirmation gave, the holder could not have learned of the
 * fault: only reconciliation before reopening (§275) answers for the effect. An effect after any
 * answer the store gave the holder on that scope to a request made after the fault (a renewal
 * granted, a refusal alike), or past the confirmed lease's expiry, or with no confirmation at all,
 * is judged. Left out by the history's limits: a confirmation asked before the fault that the
 * store served after it (the history records when the holder asked and heard, not when the store
 * acted).
 */
function decidedBefore(call: Operation, write: Placed<AcceptedWrite>, confirmations: ReadonlyArray<LeaseGrant>, operations: ReadonlyArray<Operation>, faultIndex: number): boolean {
  if (call.invoke.index < faultIndex) return true;
  const heardAfter = operations.some(
    (op) => op.invoke.index > faultIndex && op.completion !== null && op.completion.index < call.invoke.index
      && stringField(op.invoke.value, 'scope') === write.key && stringField(op.invoke.value, 'holder') === write.item.holder,
  );
  if (heardAfter) return false;
  let last: LeaseGrant | undefined;
  for (const grant of confirmations) {
    if (grant.index >= call.invoke.index) break;
    if (grant.lease.scope === write.key && grant.lease.holder === write.item.holder && grant.lease.token === write.value) last = grant;
  }
  return last !== undefined && last.op.invoke.index < faultIndex && call.invoke.time <= last.lease.expiresAt;
}

export function restoreInvalidates(history: History): Verdict {
  const operations = pairOperations(history);
  const writes = acceptedWrites(history);
  const effectInvokes = controllerOps(operations, 'effect');
  const grants = leaseGrants(history, false);
  const confirmations = leaseGrants(history, true);
  const reconciles = storeOps(operations, 'ReconcileScope').filter(({ op, outcome }) => op.completion?.type !== 'fail' && (outcome === null || outcome.kind === 'Reconciled'));

  const violations: Violation[] = [];
  // A fault the store could not undergo (no snapshot/restore: recorded as skipped) replaced nothing.
  const replacing = faultsOf(history, ['db-restore', 'db-failover']).filter((fault) => asFields(fault.value)?.skipped !== true);
  for (const fault of replacing) {
    const before = new Map<string, { token: number; index: number }>();
    for (const { lease, index } of grants) {
      if (index >= fault.index) continue;
      const seen = before.get(lease.scope);
      if (seen === undefined || lease.token > seen.token) before.set(lease.scope, { token: lease.token, index });
    }
    for (const write of writes) {
      if (write.start <= fault.index) continue;
      const stale = before.get(write.key);
      if (stale === undefined || write.value > stale.token) continue;
      const calls = effectInvokes.filter((e) => write.item.intentId !== undefined && stringField(e.invoke.value, 'intentId') === write.item.intentId);
      if (calls.length > 0 && calls.every((call) => decidedBefore(call, write, confirmations, operations, fault.index))) continue;
      violations.push(
        violation(INVARIANT, `scope ${write.key}: ${write.item.what} by ${write.item.holder} under token ${write.value} (#${write.end}) after ${fault.f} #${fault.index}; token ${stale.token} was issued before it (#${stale.index})`, [stale.index, fault.index, write.start, write.end], write.key),
      );
    }
    for (const scope of blockedScopesOf(fault.value, fault.index)) {
      for (const grant of grants) {
        if (grant.op.invoke.index <= fault.index || grant.lease.scope !== scope) continue;
        const unblocked = reconciles.some(({ op, command }) => command.scope === scope && op.invoke.index > fault.index && op.invoke.index < endOf(grant.op));
        if (unblocked) continue;
        violations.push(
          violation(INVARIANT, `scope ${scope} blocked by ${fault.f} #${fault.index}: ${grant.what} by ${grant.lease.holder} with token ${grant.lease.token} (#${grant.index}) before any ReconcileScope`, [fault.index, ...indicesOf(grant.op)], scope),
        );
      }
    }
  }
  return verdictOf(violations);
}
