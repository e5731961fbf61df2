// Multi-resource acquisition (§99–§109): all or nothing, in one global canonical order, so two
// callers can never hold one resource each while waiting for the other. Across systems that
// cannot acquire atomically, a saga reserves with expiry and compensates in reverse (§106–§107).

import { assert } from './assert.ts';
import type { AcquireAllCommand } from './commands.ts';
import type { AcquireAllResult, Lease } from './outcomes.ts';
import { compareText } from './text-order.ts';
import { grantLease } from './lease.ts';
import { isBlocked, liveLease, type ModelState, type Transition } from './state.ts';
import { isValidId, isValidTtl } from './validation.ts';
import { queueOf } from './wait-queue.ts';

/** Ascending by UTF-16 code units (§102): the one acquisition order every caller uses. */
export function canonicalOrder(scopes: ReadonlyArray<string>): ReadonlyArray<string> {
  const ordered = [...scopes].sort(compareText);
  assert(ordered.length === scopes.length, 'ordering keeps every scope');
  return ordered;
}

/** A lease on each of `scopes` in order, to one holder, each under its own token. */
export function grantEach(state: ModelState, scopes: ReadonlyArray<string>, holder: string, ttlMs: number, now: number): { readonly state: ModelState; readonly leases: Lease[] } {
  let next = state;
  const leases: Lease[] = [];
  for (const scope of scopes) {
    const granted = grantLease(next, scope, holder, ttlMs, now);
    next = granted.state;
    leases.push(granted.outcome);
  }
  return { state: next, leases };
}

export function acquireAll(state: ModelState, command: AcquireAllCommand, now: number): Transition<AcquireAllResult> {
  if (!isValidTtl(command.ttlMs)) return { state, outcome: { kind: 'Rejected', reason: 'ttl-out-of-bounds' } };
  const ordered = canonicalOrder(command.scopes);
  const distinct = ordered.every((scope, i) => i === 0 || scope !== ordered[i - 1]);
  if (ordered.length === 0 || !distinct || !ordered.every(isValidId) || !isValidId(command.holder)) {
    return { state, outcome: { kind: 'Rejected', reason: 'invalid-argument' } };
  }
  // One pass in canonical order; per scope: blocked, then live lease, then a queue.
  for (const scope of ordered) {
    if (isBlocked(state, scope)) return { state, outcome: { kind: 'Rejected', reason: 'blocked-for-reconciliation' } };
    const live = liveLease(state, scope, now);
    if (live !== null) return { state, outcome: { kind: 'Busy', scope, holder: live.holder, token: live.token } };
    if (queueOf(state, scope).length > 0) return { state, outcome: { kind: 'Rejected', reason: 'not-head-of-queue' } };
  }
  const { state: next, leases } = grantEach(state, ordered, command.holder, command.ttlMs, now);
  assert(leases.length === ordered.length, 'every scope got a lease');
  return { state: next, outcome: { kind: 'AcquiredAll', leases } };
}

/** A reservation a saga holds in some system (§107): each one carries its own expiry. */
export interface SagaStep {
  readonly system: string;
  readonly reservationId: string;
  readonly scope: string;
  readonly expiresAt: number;
}

export interface SagaFailure {
  readonly system: string;
  readonly scope: string;
  readonly reason: string;
}

/**
 * One compensation. `release` asks the system to give the reservation back; `lapsed` means its
 * expiry already returned it, so no call is needed. `deadline` is the expiry that backstops the
 * compensation if the release call itself is lost.
 */
export interface Compensation {
  readonly action: 'release' | 'lapsed';
  readonly system: string;
  readonly reservationId: string;
  readonly deadline: number;
}

/** The compensations for a failed saga: every step taken, newest first (§105, §107, §292). */
export function planCompensation(taken: ReadonlyArray<SagaStep>, failure: SagaFailure, now: number): ReadonlyArray<Compensation> {
  assert(failure.reason.length > 0, 'a saga failure says why');
  const plan = [...taken].reverse().map(
    (step): Compensation => ({
      action: now < step.expiresAt ? 'release' : 'lapsed',
      system: step.system,
      reservationId: step.reservationId,
      deadline: step.expiresAt,
    }),
  );
  assert(plan.length === taken.length, 'every step taken is compensated');
  return plan;
}
