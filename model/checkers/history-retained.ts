// history-retained (seed 000 §205–§206 "Lease Tombstone: historical ownership record retained",
// §259–§261 lease history retention, §315 "Lease history is retained according lifecycle/audit
// policy"): the store keeps the record of every ownership it ended. The rule book's retention
// policy keeps tombstones for ever (model/tombstone.ts), so every lease the store said it ended —
// a Release answered Released, a ForceRelease answered ForceReleased — before an Inspect was sent
// appears among that Inspect's tombstones (its scope and token). A failover or restore that put
// back an image taken before the end excuses it: that window is rolled back with the image.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { rollbacks } from './job-records.ts';
import { pairOperations, storeOps } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'history-retained';

interface Ended {
  readonly scope: string;
  readonly token: number;
  /** When the end was asked for: the earliest it can have been written. */
  readonly sentAt: number;
  readonly answered: number;
  readonly events: ReadonlyArray<number>;
}

export function historyRetained(history: History): Verdict {
  const operations = pairOperations(history);
  const ended: Ended[] = [];
  for (const { op, command, outcome } of storeOps(operations, 'Release')) {
    if (outcome?.kind === 'Released' && op.completion !== null) ended.push({ scope: command.scope, token: outcome.token, sentAt: op.invoke.time, answered: op.completion.index, events: [op.invoke.index, op.completion.index] });
  }
  for (const { op, outcome } of storeOps(operations, 'ForceRelease')) {
    if (outcome?.kind === 'ForceReleased' && op.completion !== null) ended.push({ scope: outcome.tombstone.scope, token: outcome.tombstone.token, sentAt: op.invoke.time, answered: op.completion.index, events: [op.invoke.index, op.completion.index] });
  }
  if (ended.length === 0) return verdictOf([]);
  const rolled = rollbacks(history);
  const violations: Violation[] = [];
  for (const { op, outcome } of storeOps(operations, 'Inspect')) {
    if (outcome === null) continue;
    const kept = new Set(outcome.view.tombstones.map((t) => `${t.scope}\u0000${t.token}`));
    for (const end of ended) {
      if (end.answered > op.invoke.index || kept.has(`${end.scope}\u0000${end.token}`)) continue;
      // Rolled back: a failover or restore between the end and the Inspect put back an older image.
      if (rolled.some((r) => r.fault.index > end.answered && r.fault.index < op.invoke.index && r.imageTime <= end.sentAt)) continue;
      violations.push(violation(INVARIANT, `Inspect (#${op.invoke.index}) lists no tombstone for the lease of ${end.scope} under token ${end.token}, which the store ended at #${end.answered}: historical ownership was not retained`, [...end.events, op.invoke.index], end.scope));
    }
  }
  return verdictOf(violations);
}
