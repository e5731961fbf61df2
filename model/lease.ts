// Leases (§21–§36, §75–§85, §110–§114): one durable row per scope, live iff now < expiresAt,
// each ownership carrying a fresh fencing token. Check order follows model/SEMANTICS.md exactly.

import { assert } from './assert.ts';
import type { AcquireCommand, HandoffCommand, ReleaseCommand, RenewCommand } from './commands.ts';
import { issueToken } from './fencing-token.ts';
import type { AcquireResult, HandoffResult, Lease, RejectReason, ReleaseResult, RenewResult } from './outcomes.ts';
import { mapWith, mapWithout } from './persistent.ts';
import { checkGuard, isFenced } from './role-epoch.ts';
import { isBlocked, liveLease, type ModelState, type Transition } from './state.ts';
import { withTombstone } from './tombstone.ts';
import { isValidId, isValidTtl } from './validation.ts';
import { dequeue, headOf, queueOf } from './wait-queue.ts';

function rejected(state: ModelState, reason: RejectReason): Transition<{ readonly kind: 'Rejected'; readonly reason: RejectReason }> {
  return { state, outcome: { kind: 'Rejected', reason } };
}

function stale(state: ModelState, scope: string, now: number): Transition<{ readonly kind: 'Stale'; readonly currentToken: number | null }> {
  return { state, outcome: { kind: 'Stale', currentToken: liveLease(state, scope, now)?.token ?? null } };
}

/** Issues a token and writes the new lease row of `scope`. */
export function grantLease(state: ModelState, scope: string, holder: string, ttlMs: number, now: number): Transition<Lease> {
  const issued = issueToken(state, scope);
  const lease: Lease = { scope, holder, token: issued.token, acquiredAt: now, expiresAt: now + ttlMs };
  assert(lease.expiresAt > now, 'a granted lease is live when granted');
  return { state: { ...issued.state, leases: mapWith(issued.state.leases, scope, lease) }, outcome: lease };
}

/** Step 5 of Acquire: the queue decides whether this caller may take the lease. */
function passQueue(state: ModelState, command: AcquireCommand, now: number): ModelState | RejectReason {
  const queue = queueOf(state, command.scope);
  if (queue.length === 0) return command.waiterId === undefined ? state : 'unknown-waiter';
  if (command.waiterId === undefined) return 'not-head-of-queue';
  if (state.waiterScopes.get(command.waiterId) !== command.scope) return 'unknown-waiter';
  const head = headOf(queue, now);
  assert(head !== null, 'a non-empty queue has a head');
  if (head.waiterId !== command.waiterId) return 'not-head-of-queue';
  return dequeue(state, command.scope, command.waiterId);
}

export function acquire(initial: ModelState, command: AcquireCommand, now: number): Transition<AcquireResult> {
  const guarded = checkGuard(initial, command.guard);
  if (isFenced(guarded)) return { state: initial, outcome: guarded };
  const state = guarded;
  if (!isValidTtl(command.ttlMs)) return rejected(state, 'ttl-out-of-bounds');
  const idsValid =
    isValidId(command.scope) && isValidId(command.holder) && (command.waiterId === undefined || isValidId(command.waiterId));
  if (!idsValid) return rejected(state, 'invalid-argument');
  if (isBlocked(state, command.scope)) return rejected(state, 'blocked-for-reconciliation');
  const live = liveLease(state, command.scope, now);
  if (live !== null) return { state, outcome: { kind: 'Busy', holder: live.holder, token: live.token, expiresAt: live.expiresAt } };
  const queued = passQueue(state, command, now);
  if (typeof queued === 'string') return rejected(state, queued);
  const granted = grantLease(queued, command.scope, command.holder, command.ttlMs, now);
  return { state: granted.state, outcome: { kind: 'Acquired', lease: granted.outcome } };
}

export function renew(state: ModelState, command: RenewCommand, now: number): Transition<RenewResult> {
  if (!isValidTtl(command.ttlMs)) return rejected(state, 'ttl-out-of-bounds');
  const row = state.leases.get(command.scope);
  const matches = row !== undefined && row.token === command.expectedToken && row.holder === command.holder;
  if (!matches) return stale(state, command.scope, now);
  if (now >= row.expiresAt) return { state, outcome: { kind: 'Expired' } };
  // A store whose renewals only confirm (ModelState.renewal) answers the lease as it stands.
  if (state.renewal === 'confirms') return { state, outcome: { kind: 'Renewed', lease: row } };
  const lease: Lease = { ...row, expiresAt: now + command.ttlMs };
  return { state: { ...state, leases: mapWith(state.leases, command.scope, lease) }, outcome: { kind: 'Renewed', lease } };
}

/** The live lease of `scope` if it has exactly this token and holder. */
function heldLease(state: ModelState, scope: string, holder: string, token: number, now: number): Lease | null {
  const live = liveLease(state, scope, now);
  return live !== null && live.token === token && live.holder === holder ? live : null;
}

export function release(state: ModelState, command: ReleaseCommand, now: number): Transition<ReleaseResult> {
  const held = heldLease(state, command.scope, command.holder, command.token, now);
  if (held === null) return stale(state, command.scope, now);
  const ended = withTombstone(state, held, 'released', now);
  return {
    state: { ...ended.state, leases: mapWithout(ended.state.leases, command.scope) },
    outcome: { kind: 'Released', token: held.token },
  };
}

/** Ownership handoff (§112–§114): atomic, and the new holder gets a new token. */
export function handoff(state: ModelState, command: HandoffCommand, now: number): Transition<HandoffResult> {
  if (!isValidTtl(command.ttlMs)) return rejected(state, 'ttl-out-of-bounds');
  const held = heldLease(state, command.scope, command.holder, command.token, now);
  if (held === null) return stale(state, command.scope, now);
  const ended = withTombstone(state, held, 'handed-off', now);
  const granted = grantLease(ended.state, command.scope, command.newHolder, command.ttlMs, now);
  assert(granted.outcome.token > held.token, 'a handoff increments the token');
  return { state: granted.state, outcome: { kind: 'HandedOff', lease: granted.outcome } };
}
