// quorum-loss-degraded (seed 001 §71–§81, §98, §261, §276): while the voters have no quorum there
// is no coordination write (no leader is elected), and new scheduler-authority work stops: no
// guarded lease creation starts later than the leader's step-down bound after quorum was lost.
// Reads, and attempts already running under their database leases, continue (§74, §76).

import type { FaultEvent, History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { guardOf } from './leader-changes.ts';
import { LEASE_CREATING } from './lease-creations.ts';
import { requireNumber } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'quorum-loss-degraded';

export function quorumLossDegraded(history: History): Verdict {
  const violations: Violation[] = [];
  let lost: FaultEvent | null = null;
  let boundMs = 0;
  for (const event of history) {
    if (event.type === 'fault') {
      if (event.f === 'quorum-loss') {
        lost = event;
        boundMs = requireNumber(event.value, 'stepDownBoundMs', event.index);
      } else if (event.f === 'quorum-restored') {
        lost = null;
      } else if (event.f === 'leader-change' && lost !== null) {
        violations.push(violation(INVARIANT, `a leader was elected (#${event.index}) while quorum was lost since #${lost.index}: a coordination write without quorum`, [lost.index, event.index]));
      }
      continue;
    }
    if (lost === null || event.type !== 'invoke' || !LEASE_CREATING.has(event.f)) continue;
    const guard = guardOf(event.value);
    if (guard === undefined || event.time <= lost.time + boundMs) continue;
    violations.push(
      violation(INVARIANT, `${event.process} started a ${guard.role} lease creation at ${event.time} ms (#${event.index}), ${event.time - lost.time} ms into a quorum loss (#${lost.index}); leadership must stop within ${boundMs} ms`, [lost.index, event.index]),
    );
  }
  return verdictOf(violations);
}
