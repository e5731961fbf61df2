// drained-leader-stops (seed 001 §270, §293–§295): a leader that is drained hands leadership on only
// after it stopped its role: no lease creation under a role guard is started by that process after
// its `leader-transfer` record, until it is elected leader again (a later `leader-change` naming it).

import type { History } from '../history.ts';
import { incarnationOfProcess } from '../node-incarnation.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { guardOf } from './leader-changes.ts';
import { LEASE_CREATING } from './lease-creations.ts';
import { requireString } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'drained-leader-stops';

export function drainedLeaderStops(history: History): Verdict {
  const violations: Violation[] = [];
  /** Drained processes, with the index of their transfer record. */
  const drained = new Map<string, number>();
  for (const event of history) {
    if (event.type === 'fault' && event.f === 'leader-transfer') drained.set(requireString(event.value, 'process', event.index), event.index);
    else if (event.type === 'fault' && event.f === 'leader-change') drained.delete(requireString(event.value, 'leader', event.index));
    if (event.type !== 'invoke' || !LEASE_CREATING.has(event.f)) continue;
    const guard = guardOf(event.value);
    const process = incarnationOfProcess(event.process);
    const since = drained.get(process);
    if (guard === undefined || since === undefined) continue;
    violations.push(violation(INVARIANT, `${event.process} started a ${guard.role} lease creation (epoch ${guard.epoch}, #${event.index}) after it handed leadership on (#${since}): a drained leader stops its role first`, [since, event.index]));
  }
  return verdictOf(violations);
}
