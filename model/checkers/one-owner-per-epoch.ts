// one-owner-per-epoch (seed 000 §25, §162, §281, §300): a (scope, token) pair names at most one
// holder, whether the history shows it as a lease grant or as an accepted write; and no protected
// write lands under a token lower than one already accepted on that scope, nor — at the store —
// under a token lower than one already granted there (a stale owner, even before its successor
// writes: §25 "A wakes up" after B was granted).

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { acceptedWrites, type AcceptedWrite } from './accepted-writes.ts';
import { leaseGrants } from './lease-grants.ts';
import { controllerOps, faultsBetween, pairOperations, stringField } from './operations.ts';
import { regressions, type Regression } from './real-time-order.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'one-owner-per-epoch';

interface Claim {
  readonly scope: string;
  readonly token: number;
  readonly holder: string;
  readonly what: string;
  readonly index: number;
}

function ownershipClaims(history: History): ReadonlyArray<Claim> {
  const writes = acceptedWrites(history).map((w) => ({ scope: w.key, token: w.value, holder: w.item.holder, what: w.item.what, index: w.end }));
  const leases = leaseGrants(history, true).map((g) => ({ scope: g.lease.scope, token: g.lease.token, holder: g.lease.holder, what: g.what, index: g.index }));
  return [...leases, ...writes].sort((a, b) => a.index - b.index);
}

/**
 * Writes under a token lower than one already accepted on the scope. A provider effect is the
 * holder's act from the moment it called the provider: against store writes it is placed from that
 * call to its application (a request that sat in the network was still sent under a valid lease);
 * against other effects at its application, where only the provider's own fencing orders them.
 */
function staleWrites(history: History): ReadonlyArray<Regression<AcceptedWrite>> {
  const writes = acceptedWrites(history);
  const firstCall = new Map<string, number>();
  for (const op of controllerOps(pairOperations(history), 'effect')) {
    const intentId = stringField(op.invoke.value, 'intentId');
    if (intentId !== undefined && !firstCall.has(intentId)) firstCall.set(intentId, op.invoke.index);
  }
  const fromCall = writes.map((w) => {
    const call = w.item.intentId === undefined ? undefined : firstCall.get(w.item.intentId);
    return call === undefined || call > w.start ? w : { ...w, start: call };
  });
  const found = [...regressions(fromCall, true)];
  const seen = new Set(found.map(({ earlier, later }) => `${earlier.end}/${later.end}`));
  for (const r of regressions(writes.filter((w) => w.item.what === 'effect-applied'), true)) if (!seen.has(`${r.earlier.end}/${r.later.end}`)) found.push(r);
  return found;
}

export function oneOwnerPerEpoch(history: History): Verdict {
  const violations: Violation[] = [];
  const owner = new Map<string, Claim>();
  const reported = new Set<string>();
  for (const claim of ownershipClaims(history)) {
    const id = `${claim.scope}\u0000${claim.token}\u0000${claim.holder}`;
    const key = `${claim.scope}\u0000${claim.token}`;
    const first = owner.get(key);
    if (first === undefined) {
      owner.set(key, claim);
      continue;
    }
    if (first.holder === claim.holder || reported.has(id)) continue;
    reported.add(id);
    violations.push(
      violation(INVARIANT, `scope ${claim.scope} token ${claim.token} has two holders: ${first.holder} (${first.what} #${first.index}) and ${claim.holder} (${claim.what} #${claim.index})${faultsBetween(history, first.index, claim.index)}`, [first.index, claim.index], claim.scope),
    );
  }
  for (const { earlier, later } of staleWrites(history)) {
    violations.push(
      violation(INVARIANT, `scope ${later.key}: stale owner ${later.item.holder} had ${later.item.what} accepted under token ${later.value} (#${later.end}) after ${earlier.item.holder}'s ${earlier.item.what} under token ${earlier.value} (#${earlier.end})${faultsBetween(history, earlier.end, later.start)}`, [earlier.end, later.start, later.end], later.key),
    );
  }
  for (const write of acceptedWrites(history)) {
    // Provider effects may legitimately land after a newer grant (the provider fences where it can,
    // §28); the store itself never accepts a write once a newer token of the scope was granted.
    if (write.item.what !== 'Mutate Accepted') continue;
    const newer = leaseGrants(history, false).find((g) => g.lease.scope === write.key && g.lease.token > write.value && g.index < write.start);
    if (newer === undefined) continue;
    violations.push(
      violation(INVARIANT, `scope ${write.key}: stale owner ${write.item.holder} had ${write.item.what} under token ${write.value} (#${write.end}) after token ${newer.lease.token} was granted to ${newer.lease.holder} (#${newer.index})${faultsBetween(history, newer.index, write.start)}`, [newer.index, write.start, write.end], write.key),
    );
  }
  return verdictOf(violations);
}
