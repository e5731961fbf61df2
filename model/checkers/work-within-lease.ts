// work-within-lease (seed 000 §157–§160; seed 003 0892821, "no holder outlives a lease the runtime
// can no longer maintain"; seed 002 "Why staged" 2, "bound the ExtendLock call"): a holder's handler
// does its unfenced work only while it can know that its lease holds. Each `work-step` of token t
// on scope s at time T must have:
// - a grant or renewal of (s, t) reported before it, one requested at a time R with R + TTL ≥ T.
//   The store counts a TTL from when the request reaches it, never earlier, so a step within that
//   bound is within the lease; a step after it ran on a lease that may have passed to another
//   holder, whatever the refresh loop was still waiting for;
// - no refusal of a renewal of (s, t) reported before it (OwnershipUncertain: the holder was told);
// - no Release or Handoff of (s, t) by its holder requested before it.
// A lease is (scope, token, holder): a store that repeats a token does not end another's lease here.
// A force release cannot be seen by the holder in time, so it is the provider's fencing, not
// this rule, that stops a forced holder's fenced effects.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { renewalsOnlyConfirm } from './renewal-kind.ts';
import { leaseGrants, type LeaseGrant } from './lease-grants.ts';
import { isTruth, numberField, pairOperations, storeOps, stringField } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'work-within-lease';

interface Ended {
  readonly index: number;
  readonly time: number;
  readonly what: string;
}

export function workWithinLease(history: History): Verdict {
  // Where renewals only confirm, a Renewed vouches for no more of the lease than its grant did.
  const confirming = renewalsOnlyConfirm(history);
  const grants = byLease(leaseGrants(history, true).filter((g) => !(confirming && g.what === 'Renewed')));
  const ends = endsByLease(history);
  const violations: Violation[] = [];
  for (const event of history) {
    if (!isTruth(event) || event.f !== 'work-step') continue;
    const scope = stringField(event.value, 'scope');
    const token = numberField(event.value, 'token');
    const holder = stringField(event.value, 'holder');
    if (scope === undefined || token === undefined || holder === undefined) throw new Error(`#${event.index}: work-step carries scope, token and holder`);
    const who = `${stringField(event.value, 'process') ?? holder} at t=${event.time}`;
    const key = leaseKey(scope, token, holder);
    const ended = (ends.get(key) ?? []).find((e) => e.index < event.index);
    if (ended !== undefined) {
      violations.push(violation(INVARIANT, `scope ${scope}: token ${token} worked on by ${who} after ${ended.what} at t=${ended.time}`, [ended.index, event.index], scope));
      continue;
    }
    const known = (grants.get(key) ?? []).filter((g) => g.index < event.index);
    const last = latestBound(known);
    if (last === undefined) {
      violations.push(violation(INVARIANT, `scope ${scope}: token ${token} worked on by ${who} with no grant of it reported before`, [event.index], scope));
    } else if (event.time > last.bound) {
      const { grant, bound } = last;
      const message = `scope ${scope}: token ${token} worked on by ${who}, ${event.time - bound} ms after its lease could last: its latest ${grant.what} was requested at t=${grant.op.invoke.time} for ${bound - grant.op.invoke.time} ms`;
      violations.push(violation(INVARIANT, message, [grant.op.invoke.index, event.index], scope));
    }
  }
  return verdictOf(violations);
}

function byLease(grants: ReadonlyArray<LeaseGrant>): Map<string, LeaseGrant[]> {
  const map = new Map<string, LeaseGrant[]>();
  for (const grant of grants) {
    const key = leaseKey(grant.lease.scope, grant.lease.token, grant.lease.holder);
    const list = map.get(key);
    if (list === undefined) map.set(key, [grant]);
    else list.push(grant);
  }
  return map;
}

/**
 * The latest end of the lease that any of these grants can vouch for: request time plus TTL. A new
 * lease lasts what the store granted (`expiresAt − acquiredAt`, which a store of its own may round
 * up or down from the TTL asked); a renewal, what was asked.
 */
function latestBound(grants: ReadonlyArray<LeaseGrant>): { readonly grant: LeaseGrant; readonly bound: number } | undefined {
  let best: { grant: LeaseGrant; bound: number } | undefined;
  for (const grant of grants) {
    const granted = grant.lease.expiresAt - grant.lease.acquiredAt;
    const ttl = grant.what === 'Renewed' ? (numberField(grant.op.invoke.value, 'ttlMs') ?? granted) : granted;
    const bound = grant.op.invoke.time + ttl;
    if (best === undefined || bound > best.bound) best = { grant, bound };
  }
  return best;
}

function leaseKey(scope: string, token: number, holder: string): string {
  return JSON.stringify([scope, token, holder]);
}

/** Refused renewals (by their reply), releases and handoffs (by their request) of each lease, in history order. */
function endsByLease(history: History): Map<string, Ended[]> {
  const operations = pairOperations(history);
  const ends: Array<{ readonly key: string; readonly ended: Ended }> = [];
  for (const { op, command, outcome } of storeOps(operations, 'Renew')) {
    if (outcome === null || outcome.kind === 'Renewed' || op.completion === null) continue;
    ends.push({ key: leaseKey(command.scope, command.expectedToken, command.holder), ended: { index: op.completion.index, time: op.completion.time, what: `its renewal was refused (${outcome.kind})` } });
  }
  for (const { op, command } of storeOps(operations, 'Release')) {
    ends.push({ key: leaseKey(command.scope, command.token, command.holder), ended: { index: op.invoke.index, time: op.invoke.time, what: `${op.process} released it` } });
  }
  for (const { op, command } of storeOps(operations, 'Handoff')) {
    ends.push({ key: leaseKey(command.scope, command.token, command.holder), ended: { index: op.invoke.index, time: op.invoke.time, what: `${op.process} handed it to ${command.newHolder}` } });
  }
  const map = new Map<string, Ended[]>();
  for (const { key, ended } of ends.sort((a, b) => a.ended.index - b.ended.index)) {
    const list = map.get(key);
    if (list === undefined) map.set(key, [ended]);
    else list.push(ended);
  }
  return map;
}
