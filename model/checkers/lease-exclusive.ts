// lease-exclusive (seed 000 §279 "only one holder", §82 "clock skew must not allow two valid
// owners", §78): at any instant of store time a scope has at most one live lease. Every granted
// lease carries its store-time interval [acquiredAt, expiresAt), renewals extend it, and an
// explicit end (release, handoff, force release, recovery) cuts it short no earlier than the
// moment that call was sent. Two leases of one scope whose intervals certainly overlap mean the
// store granted a second owner while the first was still valid — what a store that judges expiry
// by a client's clock does (§80).

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { leaseGrants } from './lease-grants.ts';
import { pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'lease-exclusive';

interface LeaseSpan {
  readonly scope: string;
  readonly holder: string;
  readonly token: number;
  readonly acquiredAt: number;
  expiresAt: number;
  /** The earliest store time at which a call that ended this lease can have run. */
  endedNoEarlierThan: number;
  readonly events: number[];
}

const key = (scope: string, token: number, holder: string) => `${scope}\u0000${token}\u0000${holder}`;

function spansOf(history: History): Map<string, LeaseSpan[]> {
  const spans = new Map<string, LeaseSpan>();
  for (const grant of leaseGrants(history, true)) {
    const { scope, holder, token, acquiredAt, expiresAt } = grant.lease;
    const id = key(scope, token, holder);
    const span = spans.get(id);
    if (span === undefined) {
      if (grant.what === 'Renewed') continue; // a renewal of a lease granted before the history began
      spans.set(id, { scope, holder, token, acquiredAt, expiresAt, endedNoEarlierThan: Number.POSITIVE_INFINITY, events: [grant.index] });
    } else {
      span.expiresAt = Math.max(span.expiresAt, expiresAt);
      span.events.push(grant.index);
    }
  }
  const operations = pairOperations(history);
  const end = (scope: string, token: number, at: number, index: number): void => {
    for (const span of spans.values()) {
      if (span.scope === scope && span.token === token && at < span.endedNoEarlierThan) {
        span.endedNoEarlierThan = at;
        span.events.push(index);
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
  // A recovery epoch invalidates every lease live when it runs (§273); an unfinished one may have.
  for (const { op } of storeOps(operations, 'AdvanceRecoveryEpoch')) {
    for (const span of spans.values()) {
      if (op.invoke.time < span.endedNoEarlierThan) span.endedNoEarlierThan = op.invoke.time;
    }
  }
  const byScope = new Map<string, LeaseSpan[]>();
  for (const span of spans.values()) {
    const list = byScope.get(span.scope) ?? [];
    list.push(span);
    byScope.set(span.scope, list);
  }
  return byScope;
}

export function leaseExclusive(history: History): Verdict {
  const violations: Violation[] = [];
  for (const [scope, spans] of spansOf(history)) {
    spans.sort((a, b) => a.acquiredAt - b.acquiredAt || a.token - b.token);
    for (let later = 1; later < spans.length; later++) {
      const b = spans[later]!;
      for (let earlier = 0; earlier < later; earlier++) {
        const a = spans[earlier]!;
        const aValidUntil = Math.min(a.expiresAt, a.endedNoEarlierThan);
        if (b.acquiredAt < aValidUntil) {
          violations.push(
            violation(
              INVARIANT,
              `scope ${scope}: token ${b.token} granted to ${b.holder} at store time ${b.acquiredAt} while token ${a.token} of ${a.holder} was valid until ${aValidUntil}`,
              [...a.events, ...b.events],
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
