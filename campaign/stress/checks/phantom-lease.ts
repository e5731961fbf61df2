// no-phantom-lease (seed 000 §21–§22, §99–§105), over a stress history: every holder and token a
// Busy answer names was granted to that holder by an Acquire or AcquireAll answered ok, or may
// have been by one that did not answer ok (unknown, failed or errored: counted as possible). One
// pass over the history with two sets, however long it is. For a store without fences the Busy
// answer's holder alone is judged: the token it names is only the translation's (sim/fence-ids.ts).

import type { StressHistory, StressOp } from '../history.ts';
import type { Grant } from '../leases.ts';
import { named, violation, type StressViolation } from '../violation.ts';

export const NO_PHANTOM_LEASE = 'no-phantom-lease';

const key = (scope: string, holder: string): string => `${scope}\u0000${holder}`;

export function checkNoPhantomLease(history: StressHistory, grants: ReadonlyArray<Grant>, byToken = true): StressViolation[] {
  const leaseOf = (scope: string, holder: string, token: number): string => (byToken ? `${key(scope, holder)}\u0000${token}` : key(scope, holder));
  const granted = new Set(grants.map((g) => leaseOf(g.scope, g.holder, g.token)));
  const uncertain = new Set<string>();
  const namedLeases: Array<{ op: StressOp; scope: string; holder: string; token: number }> = [];
  for (const op of history) {
    const command = op.command;
    if (command.kind !== 'Acquire' && command.kind !== 'AcquireAll') continue;
    const scopes = command.kind === 'Acquire' ? [command.scope] : command.scopes;
    if (op.status !== 'ok') for (const scope of scopes) uncertain.add(key(scope, command.holder));
    const outcome = op.outcome;
    if (op.status !== 'ok' || outcome?.kind !== 'Busy' || !('holder' in outcome)) continue;
    const scope = 'scope' in outcome ? outcome.scope : scopes[0]!;
    namedLeases.push({ op, scope, holder: outcome.holder, token: outcome.token });
  }
  const found: StressViolation[] = [];
  const reported = new Set<string>();
  for (const { op, scope, holder, token } of namedLeases) {
    const id = leaseOf(scope, holder, token);
    if (granted.has(id) || uncertain.has(key(scope, holder)) || reported.has(id)) continue;
    reported.add(id);
    const lease = byToken ? `holder ${holder} with token ${token}` : `holder ${holder}`;
    found.push(violation(NO_PHANTOM_LEASE, scope, [op], `scope ${scope}: the Busy answer to ${named(op)} names ${lease}, a lease no call was granted`));
  }
  return found;
}
