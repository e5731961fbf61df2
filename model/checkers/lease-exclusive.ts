// lease-exclusive (seed 000 §279 "only one holder", §82 "clock skew must not allow two valid
// owners", §78): at any instant of store time a scope has at most one live lease. Every granted
// lease carries its store-time interval [acquiredAt, expiresAt), renewals extend it, and an
// explicit end (release, handoff, force release, recovery) cuts it short no earlier than the
// moment that call was sent. Two leases of one scope whose intervals certainly overlap mean the
// store granted a second owner while the first was still valid — what a store that judges expiry
// by a client's clock does (§80).
// A lease that has certainly expired is not held by anyone (§31–§35, §66–§70, §157–§160): no
// renewal of it answers Renewed, no protected write under its token is accepted and its holder
// starts no side effect under it once store time passed its latest possible expiry (a renewal whose outcome is unknown may have extended it: then nothing
// after it is judged).

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { leaseGrants, type LeaseGrant } from './lease-grants.ts';
import { controllerOps, indicesOf, numberField, pairOperations, stringField, storeOps, type Operation, type StoreOp } from './operations.ts';
import { verdictOf, violation } from './violations.ts';
import { sessionBound, sessionEnds, sessionKey } from './session-ends.ts';

const INVARIANT = 'lease-exclusive';

interface LeaseSpan {
  readonly scope: string;
  readonly holder: string;
  readonly token: number;
  readonly acquiredAt: number;
  expiresAt: number;
  /** The earliest store time at which a call that ended this lease can have run. */
  endedNoEarlierThan: number;
  /** The grant, then each renewal: where the history shows the lease and how long it lasts. */
  readonly marks: Array<{ readonly index: number; readonly expiresAt: number }>;
  /** Calls that may have ended the lease. */
  readonly ends: number[];
}

const key = (scope: string, token: number, holder: string) => `${scope}\u0000${token}\u0000${holder}`;

function spansOf(history: History): Map<string, LeaseSpan[]> {
  const spans = new Map<string, LeaseSpan>();
  const byScope = new Map<string, LeaseSpan[]>();
  // A session-bound lease is valid until it is ended, whatever expiry it reported.
  const bound = sessionBound(history);
  for (const grant of leaseGrants(history, true)) {
    const { scope, holder, token, acquiredAt } = grant.lease;
    const expiresAt = bound ? Number.POSITIVE_INFINITY : grant.lease.expiresAt;
    const id = key(scope, token, holder);
    const span = spans.get(id);
    if (span === undefined) {
      if (grant.what === 'Renewed') continue; // a renewal of a lease granted before the history began
      const created: LeaseSpan = { scope, holder, token, acquiredAt, expiresAt, endedNoEarlierThan: Number.POSITIVE_INFINITY, marks: [{ index: grant.index, expiresAt }], ends: [] };
      spans.set(id, created);
      const list = byScope.get(scope);
      if (list === undefined) byScope.set(scope, [created]);
      else list.push(created);
    } else {
      span.expiresAt = Math.max(span.expiresAt, expiresAt);
      span.marks.push({ index: grant.index, expiresAt });
    }
  }
  const operations = pairOperations(history);
  const end = (scope: string, token: number, at: number, index: number): void => {
    for (const span of byScope.get(scope) ?? []) {
      if (span.token === token && at < span.endedNoEarlierThan) {
        span.endedNoEarlierThan = at;
        span.ends.push(index);
      }
    }
  };
  // A call whose reply was lost (info) or never came may have taken effect when it was sent.
  const mayHaveRun = (op: Operation) => op.completion === null || op.completion.type === 'info';
  for (const { op, command, outcome } of storeOps(operations, 'Release')) {
    if (outcome?.kind === 'Released' || mayHaveRun(op)) end(command.scope, command.token, op.invoke.time, op.invoke.index);
  }
  for (const { op, command, outcome } of storeOps(operations, 'Handoff')) {
    if (outcome?.kind === 'HandedOff' || mayHaveRun(op)) end(command.scope, command.token, op.invoke.time, op.invoke.index);
  }
  for (const { op, command, outcome } of storeOps(operations, 'ForceRelease')) {
    if (outcome?.kind === 'ForceReleased') end(command.scope, outcome.tombstone.token, op.invoke.time, op.invoke.index);
    else if (mayHaveRun(op)) end(command.scope, command.expectedToken, op.invoke.time, op.invoke.index);
  }
  // A lease that ended with its session ended when the store was told (000 §74).
  for (const ended of sessionEnds(history).values()) end(ended.scope, ended.token, ended.time, ended.index);
  // A recovery epoch invalidates every lease live when it runs (§273); an unfinished one may have.
  for (const { op } of storeOps(operations, 'AdvanceRecoveryEpoch')) {
    for (const span of spans.values()) {
      if (op.invoke.time < span.endedNoEarlierThan) {
        span.endedNoEarlierThan = op.invoke.time;
        span.ends.push(op.invoke.index);
      }
    }
  }
  return byScope;
}

/**
 * The events that show `later` granted while `earlier` was valid: the later grant, the earlier
 * grant and its renewals up to the first that carried it past that moment, and the calls before
 * then that cut it short. A reader (and the shrinker's prefix cut) needs nothing after that.
 */
function evidence(earlier: LeaseSpan, later: LeaseSpan): number[] {
  const grant = later.marks[0]!.index;
  const covering = earlier.marks.find((mark) => mark.expiresAt > later.acquiredAt)?.index ?? grant;
  const upTo = Math.max(grant, covering);
  const shown = earlier.marks.filter((mark) => mark.index <= upTo).map((mark) => mark.index);
  // A call that ended the earlier lease after that point only shortens what was already shown.
  const ends = earlier.ends.filter((index) => index <= upTo);
  return [...shown, ...ends, grant].sort((a, b) => a - b);
}

/**
 * The latest store time at which the lease (scope, token, holder) can still have been live for an
 * operation that completed at history index `before` (and is not `self`): its grant's expiry or
 * a renewal that may have run before it; +∞ when a renewal with an unknown outcome may have.
 */
function latestExpiry(grants: ReadonlyArray<LeaseGrant>, renewals: ReadonlyArray<StoreOp<'Renew'>>, scope: string, token: number, holder: string, before: number, self: Operation | null): number {
  let latest = Number.NEGATIVE_INFINITY;
  let granted = false;
  for (const grant of grants) {
    if (grant.what === 'Renewed' || grant.lease.scope !== scope || grant.lease.token !== token || grant.lease.holder !== holder || grant.op.invoke.index >= before) continue;
    granted = true;
    latest = Math.max(latest, grant.lease.expiresAt);
  }
  // A lease the history never shows granted (or granted later) is not judged here.
  if (!granted) return Number.POSITIVE_INFINITY;
  for (const { op, command, outcome } of renewals) {
    if (op === self || command.scope !== scope || command.expectedToken !== token || command.holder !== holder || op.invoke.index >= before) continue;
    if (op.completion?.type === 'fail') continue;
    if (outcome === null) return Number.POSITIVE_INFINITY;
    if (outcome.kind === 'Renewed') latest = Math.max(latest, outcome.lease.expiresAt);
  }
  return latest;
}

/** Renewals answered Renewed, and writes accepted, under a lease whose expiry had certainly passed. */
function actsAfterExpiry(history: History): Violation[] {
  const operations = pairOperations(history);
  const grants = leaseGrants(history, false);
  const renewals = storeOps(operations, 'Renew');
  const found: Violation[] = [];
  const bound = sessionBound(history);
  const ended = sessionEnds(history);
  const judge = (op: Operation, what: string, scope: string, token: number, holder: string, before = op.completion?.index, storeAct = true): void => {
    if (before === undefined) return;
    // A lease that ended with its session is over, whatever its expiry: the store accepts nothing
    // sent after that under it. (Its holder may not know yet: its own acts are judged by expiry.)
    const end = storeAct ? ended.get(sessionKey(scope, token, holder)) : undefined;
    if (end !== undefined && op.invoke.index > end.index) {
      found.push(violation(INVARIANT, `scope ${scope}: ${what} by ${holder} under token ${token} (#${op.invoke.index}), after that lease ended with its session (#${end.index})`, [end.index, ...indicesOf(op)], scope));
      return;
    }
    // A session-bound lease has no expiry to pass.
    if (bound) return;
    const expiry = latestExpiry(grants, renewals, scope, token, holder, before, op);
    // The store (or the holder, for an effect) acted no earlier than the operation was invoked.
    if (op.invoke.time < expiry) return;
    const granted = grants.filter((g) => g.lease.scope === scope && g.lease.token === token && g.lease.holder === holder && g.op.invoke.index < before).map((g) => g.index);
    found.push(violation(INVARIANT, `scope ${scope}: ${what} by ${holder} under token ${token} invoked at store time ${op.invoke.time} (#${op.invoke.index}), after that lease expired at ${expiry}`, [...granted, ...indicesOf(op)], scope));
  };
  for (const { op, command, outcome } of renewals) if (outcome?.kind === 'Renewed') judge(op, 'renewal answered Renewed', command.scope, command.expectedToken, command.holder);
  for (const { op, command, outcome } of storeOps(operations, 'Mutate')) if (outcome?.kind === 'Accepted') judge(op, 'write accepted', command.scope, command.token, command.holder);
  // A holder starts a side effect only while its lease is live (§157–§160): the call is its own act.
  for (const op of controllerOps(operations, 'effect')) {
    const token = numberField(op.invoke.value, 'token');
    const scope = stringField(op.invoke.value, 'scope');
    const holder = stringField(op.invoke.value, 'holder');
    if (token !== undefined && scope !== undefined && holder !== undefined) judge(op, 'effect started', scope, token, holder, op.invoke.index, false);
  }
  return found;
}

export function leaseExclusive(history: History): Verdict {
  const violations: Violation[] = [...actsAfterExpiry(history)];
  for (const [scope, spans] of spansOf(history)) {
    spans.sort((a, b) => a.acquiredAt - b.acquiredAt || a.token - b.token);
    // The latest end of validity among the earlier spans says whether any overlaps: only then
    // are they scanned for the first that does, so a valid history costs one pass.
    let validUntilMax = Number.NEGATIVE_INFINITY;
    for (let later = 0; later < spans.length; later++) {
      const b = spans[later]!;
      const overlaps = b.acquiredAt < validUntilMax;
      validUntilMax = Math.max(validUntilMax, Math.min(b.expiresAt, b.endedNoEarlierThan));
      if (!overlaps) continue;
      for (let earlier = 0; earlier < later; earlier++) {
        const a = spans[earlier]!;
        const aValidUntil = Math.min(a.expiresAt, a.endedNoEarlierThan);
        if (b.acquiredAt < aValidUntil) {
          violations.push(
            violation(
              INVARIANT,
              `scope ${scope}: token ${b.token} granted to ${b.holder} at store time ${b.acquiredAt} while token ${a.token} of ${a.holder} was valid until ${aValidUntil}`,
              evidence(a, b),
              scope,
            ),
          );
          break;
        }
      }
    }
  }
  return verdictOf(violations);
}
