// The configuration a Raft node holds (seed 001 §157 single-server membership changes, §59–§66):
// the membership of its snapshot, changed by each ChangeMembership entry of its log in order,
// committed or not. A configuration is used as soon as it is in the log, so a leader proposes a
// change only once the previous one is committed: any two configurations in force at once differ
// by one node, and their majorities overlap.

import type { Membership } from '../../model/cluster-membership.ts';
import type { CoordinationState } from '../../model/coordination-epoch.ts';
import type { Log } from '../../model/raft-log.ts';
import { applyRaftCommand, type RaftCommand } from './raft-protocol.ts';

const memo = new WeakMap<Log<RaftCommand>, { readonly snapshot: CoordinationState; readonly upTo: number; readonly membership: Membership }[]>();

/** The configuration of the snapshot and the log's entries up to `upTo` (the whole log by default). */
export function configurationAt(log: Log<RaftCommand>, snapshot: CoordinationState, upTo = Number.MAX_SAFE_INTEGER): Membership {
  const last = Math.min(upTo, log.base + log.entries.length);
  const known = memo.get(log) ?? [];
  const hit = known.find((m) => m.snapshot === snapshot && m.upTo === last);
  if (hit !== undefined) return hit.membership;
  // The coordination state machine's own reading of the entries: a change it refuses changes nothing here either.
  const membership = stateAt(log, snapshot, last).membership;
  memo.set(log, [...known.slice(-3), { snapshot, upTo: last, membership }]);
  return membership;
}

/** Whether the log holds a membership change beyond `index` (one not yet committed there). */
export function changePending(log: Log<RaftCommand>, index: number): boolean {
  return log.entries.slice(Math.max(0, index - log.base)).some((entry) => entry.command.kind === 'ChangeMembership');
}

/** The coordination state of the snapshot and the log's entries up to `upTo` (the whole log by default), committed or not. */
export function stateAt(log: Log<RaftCommand>, snapshot: CoordinationState, upTo = Number.MAX_SAFE_INTEGER): CoordinationState {
  return log.entries.slice(0, Math.max(0, Math.min(upTo, log.base + log.entries.length) - log.base)).reduce((state, entry) => applyRaftCommand(state, entry.command), snapshot);
}
