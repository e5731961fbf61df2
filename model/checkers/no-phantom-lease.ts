// no-phantom-lease (seed 000 §21–§22, §78, §99–§105): every lease a store names — the holder and
// token of a Busy answer, a lease in an Inspect view — was granted to that holder with that token
// by a call the history shows answered (Acquired, AcquiredAll, HandedOff), or may have been
// granted by a call that did not answer ok (still in flight, unknown, or failed: counted as
// possible, which costs a little power and never a false violation). A lease nobody was told
// they hold is a phantom: an AcquireAll that kept the scopes it took before a busy one (not all
// or nothing), a grant rolled back in the answer but not in the store, a holder written from the
// wrong request. Its holder
// does not know it owns the scope, so it is never renewed nor released, and nothing else can
// take the scope until it expires.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { leaseCreations } from './lease-creations.ts';
import { leaseGrants } from './lease-grants.ts';
import { pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'no-phantom-lease';

const key = (scope: string, holder: string): string => `${scope}\u0000${holder}`;

/** (scope, holder) pairs some call may have been granted without the history saying so: it did not answer ok. */
function uncertainGrants(operations: ReadonlyArray<Operation>): ReadonlySet<string> {
  const uncertain = new Set<string>();
  const unsettled = (op: Operation): boolean => op.completion === null || op.completion.type !== 'ok';
  for (const { op, scope, holder } of leaseCreations(operations)) if (unsettled(op) && scope !== null) uncertain.add(key(scope, holder));
  for (const { op, command } of storeOps(operations, 'Handoff')) if (unsettled(op)) uncertain.add(key(command.scope, command.newHolder));
  for (const { op, command } of storeOps(operations, 'AcquireAll')) {
    if (unsettled(op)) for (const scope of command.scopes) uncertain.add(key(scope, command.holder));
  }
  return uncertain;
}

interface Named {
  readonly scope: string;
  readonly holder: string;
  readonly token: number;
  readonly what: string;
  readonly index: number;
}

/** Every lease the store's answers name, with the answer that names it. */
function namedLeases(operations: ReadonlyArray<Operation>): ReadonlyArray<Named> {
  const named: Named[] = [];
  for (const { op, kind, scope, busy } of leaseCreations(operations)) {
    if (busy !== null && scope !== null) named.push({ scope, holder: busy.holder, token: busy.token, what: `Busy answer to ${op.process}'s ${kind}`, index: op.completion!.index });
  }
  for (const { op, outcome } of storeOps(operations, 'AcquireAll')) {
    if (outcome?.kind === 'Busy') named.push({ scope: outcome.scope, holder: outcome.holder, token: outcome.token, what: `Busy answer to ${op.process}'s AcquireAll`, index: op.completion!.index });
  }
  for (const { op, outcome } of storeOps(operations, 'Inspect')) {
    for (const lease of outcome?.view.leases ?? []) named.push({ ...lease, what: `Inspect view of ${op.process}`, index: op.completion!.index });
  }
  return named;
}

export function noPhantomLease(history: History): Verdict {
  const operations = pairOperations(history);
  const granted = new Set(leaseGrants(history, false).map(({ lease }) => `${key(lease.scope, lease.holder)}\u0000${lease.token}`));
  const uncertain = uncertainGrants(operations);
  const violations: Violation[] = [];
  const reported = new Set<string>();
  for (const lease of namedLeases(operations)) {
    const id = `${key(lease.scope, lease.holder)}\u0000${lease.token}`;
    if (granted.has(id) || uncertain.has(key(lease.scope, lease.holder)) || reported.has(id)) continue;
    reported.add(id);
    violations.push(
      violation(INVARIANT, `scope ${lease.scope}: the ${lease.what} names holder ${lease.holder} with token ${lease.token} (#${lease.index}), a lease no call was granted`, [lease.index], lease.scope),
    );
  }
  return verdictOf(violations);
}
