// raft-log-bounded (seed 001 §338 "Raft log/snapshots are bounded/compacted", "Raft state remains
// narrow and bounded", §340): a node keeps at most `snapshotEntries` applied entries in its log
// beyond its snapshot (the `raft-cluster` record's setting). Each entry a node applies is judged
// against the last snapshot of that node before it (its own compaction, or one its leader sent), or
// the compaction that ends the step it was applied in (the records of one step share its time). A
// node that lost its durable state (`voter-state-loss`) starts again from an empty log.

import { assert } from '../assert.ts';
import type { FaultEvent, History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { asFields, faultsOf, requireString } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'raft-log-bounded';

/** The compaction setting of the run; null for a run without message-level consensus (nothing to judge). */
function snapshotEntries(history: History): number | null {
  const cluster = faultsOf(history, ['raft-cluster'])[0];
  if (cluster === undefined) return null;
  const setting = asFields(cluster.value)?.['snapshotEntries'];
  assert(typeof setting === 'number' && setting > 0, 'raft-log-bounded needs a raft-cluster record with snapshotEntries (coordination.snapshotEntries above 0)');
  return setting;
}

export function raftLogBounded(history: History): Verdict {
  const bound = snapshotEntries(history);
  if (bound === null) return verdictOf([]);
  const events = faultsOf(history, ['raft-applied', 'raft-snapshot', 'voter-state-loss']);
  const base = new Map<string, number>();
  const reported = new Set<string>();
  const violations: Violation[] = [];
  for (const event of events) {
    const node = requireString(event.value, 'node', event.index);
    const index = asFields(event.value)?.['index'];
    if (event.f === 'voter-state-loss') base.set(node, 0);
    if (typeof index !== 'number') continue;
    if (event.f === 'raft-snapshot') base.set(node, Math.max(base.get(node) ?? 0, index));
    if (event.f !== 'raft-applied') continue;
    const kept = index - (base.get(node) ?? 0);
    if (kept <= bound || reported.has(node) || compactedWith(history, event, node)) continue;
    reported.add(node);
    violations.push(violation(INVARIANT, `${node} applied entry ${index} (#${event.index}) and kept ${kept} applied entries in its log beyond its snapshot at ${base.get(node) ?? 0}; it compacts every ${bound}`, [event.index]));
  }
  return verdictOf(violations);
}

/**
 * The node compacted past the entry of `applied` in the same step: the records of one step share
 * its time, and its snapshot comes after the entries it applied (other records, a leader taking
 * its role, may come between).
 */
function compactedWith(history: History, applied: FaultEvent, node: string): boolean {
  const index = applied.value['index'] as number;
  for (const next of history.slice(applied.index + 1)) {
    if (next.time !== applied.time) return false;
    if (next.type !== 'fault' || next.value['node'] !== node || next.f !== 'raft-snapshot') continue;
    return (next.value['index'] as number) >= index;
  }
  return false;
}
