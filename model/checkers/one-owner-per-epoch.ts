// one-owner-per-epoch (seed 000 §25, §162, §281, §300): a (scope, token) pair names at most one
// holder, whether the history shows it as a lease grant or as an accepted write; and no protected
// write lands under a token lower than one already accepted on that scope (a stale owner).

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { acceptedWrites } from './accepted-writes.ts';
import { leaseGrants } from './lease-grants.ts';
import { faultsBetween } from './operations.ts';
import { regressions } from './real-time-order.ts';
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
  for (const { earlier, later } of regressions(acceptedWrites(history), true)) {
    violations.push(
      violation(INVARIANT, `scope ${later.key}: stale owner ${later.item.holder} had ${later.item.what} accepted under token ${later.value} (#${later.end}) after ${earlier.item.holder}'s ${earlier.item.what} under token ${earlier.value} (#${earlier.end})${faultsBetween(history, earlier.end, later.start)}`, [earlier.end, later.start, later.end], later.key),
    );
  }
  return verdictOf(violations);
}
