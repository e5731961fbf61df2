// `concurrency doctor` (§228–§240): pure checks over a StoreView. A duplicate active owner and an
// epoch regression are critical (§230–§231); the rest are operational warnings that a reconciler
// or an operator must act on.

import { assert } from './assert.ts';
import type { StoreView } from './outcomes.ts';

export type DoctorCheck =
  | 'duplicate-active-owner'
  | 'epoch-regression'
  | 'orphan-reservation'
  | 'unknown-idempotency-outcome'
  | 'expired-unreconciled-lease'
  | 'long-contention';

export interface DoctorFinding {
  readonly check: DoctorCheck;
  readonly severity: 'critical' | 'warning';
  readonly message: string;
  readonly scope?: string;
}

/** More than one live lease on a scope (§78, §230). */
export function duplicateActiveOwners(view: StoreView): ReadonlyArray<DoctorFinding> {
  const holders = new Map<string, string[]>();
  for (const lease of view.leases) holders.set(lease.scope, [...(holders.get(lease.scope) ?? []), `${lease.holder}#${lease.token}`]);
  const findings: DoctorFinding[] = [];
  for (const [scope, owners] of holders) {
    if (owners.length > 1) {
      findings.push({ check: 'duplicate-active-owner', severity: 'critical', scope, message: `${owners.length} live owners: ${owners.join(', ')}` });
    }
  }
  return findings;
}

/** A counter that went down between an earlier and a later view of the same store (§231, §271). */
export function epochRegressions(before: StoreView, after: StoreView): ReadonlyArray<DoctorFinding> {
  const findings: DoctorFinding[] = [];
  if (after.recoveryEpoch < before.recoveryEpoch) {
    findings.push({ check: 'epoch-regression', severity: 'critical', message: `recovery epoch ${before.recoveryEpoch} -> ${after.recoveryEpoch}` });
  }
  const laterTokens = new Map(after.tokens.map((t) => [t.scope, t.lastToken]));
  for (const { scope, lastToken } of before.tokens) {
    const later = laterTokens.get(scope) ?? 0;
    if (later < lastToken) findings.push({ check: 'epoch-regression', severity: 'critical', scope, message: `last token ${lastToken} -> ${later}` });
  }
  const laterRoles = new Map(after.roleEpochs.map((r) => [r.role, r.epoch]));
  for (const { role, epoch } of before.roleEpochs) {
    const later = laterRoles.get(role) ?? 0;
    if (later < epoch) findings.push({ check: 'epoch-regression', severity: 'critical', message: `role ${role} epoch ${epoch} -> ${later}` });
  }
  return findings;
}

/** Reservations that lapsed without being consumed, released or failed, or that sit on a scope with no capacity. */
export function orphanReservations(view: StoreView): ReadonlyArray<DoctorFinding> {
  const defined = new Set(view.capacities.map((c) => c.scope));
  const findings: DoctorFinding[] = [];
  for (const reservation of view.reservations) {
    const lapsed = reservation.state === 'Expired';
    const homeless = !defined.has(reservation.scope);
    if (lapsed || homeless) {
      const why = lapsed ? 'expired unsettled' : 'scope has no capacity';
      findings.push({ check: 'orphan-reservation', severity: 'warning', scope: reservation.scope, message: `reservation ${reservation.reservationId}: ${why}` });
    }
  }
  return findings;
}

/** Idempotency records whose outcome is Unknown: each needs reconciliation, never a new operation (§53). */
export function unknownIdempotencyOutcomes(view: StoreView): ReadonlyArray<DoctorFinding> {
  return view.idempotency
    .filter((record) => record.state === 'Unknown')
    .map((record) => ({
      check: 'unknown-idempotency-outcome' as const,
      severity: 'warning' as const,
      message: `${record.tenant}/${record.operation}/${record.subject}/${record.key} is Unknown`,
    }));
}

/** Intents Started or Unknown whose lease (same scope and token) is no longer live (§35–§36, §235–§236). */
export function expiredUnreconciledLeases(view: StoreView): ReadonlyArray<DoctorFinding> {
  const liveTokens = new Map(view.leases.map((lease) => [lease.scope, lease.token]));
  return view.intents
    .filter((intent) => (intent.state === 'Started' || intent.state === 'Unknown') && liveTokens.get(intent.scope) !== intent.token)
    .map((intent) => ({
      check: 'expired-unreconciled-lease' as const,
      severity: 'warning' as const,
      scope: intent.scope,
      message: `intent ${intent.intentId} is ${intent.state} but lease token ${intent.token} is no longer live`,
    }));
}

/** Waiters that have waited `thresholdMs` or longer at `now` (§256: a signal, not a failure). */
export function longContention(view: StoreView, now: number, thresholdMs: number): ReadonlyArray<DoctorFinding> {
  assert(thresholdMs > 0, 'a contention threshold is positive');
  return view.waiters
    .filter((waiter) => now - waiter.enqueuedAt >= thresholdMs)
    .map((waiter) => ({
      check: 'long-contention' as const,
      severity: 'warning' as const,
      scope: waiter.scope,
      message: `waiter ${waiter.waiterId} has waited ${now - waiter.enqueuedAt} ms`,
    }));
}

/** Every single-view check; pass the previous view to also check for regressions. */
export function doctor(view: StoreView, now: number, options: { readonly previous?: StoreView; readonly contentionMs: number }): ReadonlyArray<DoctorFinding> {
  return [
    ...duplicateActiveOwners(view),
    ...(options.previous === undefined ? [] : epochRegressions(options.previous, view)),
    ...orphanReservations(view),
    ...unknownIdempotencyOutcomes(view),
    ...expiredUnreconciledLeases(view),
    ...longContention(view, now, options.contentionMs),
  ];
}
