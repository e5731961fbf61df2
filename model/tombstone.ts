// Historical ownership (§205–§206, §259–§261): every ended lease leaves a record, appended in
// order and never removed. Expiry alone leaves none (model/SEMANTICS.md "Leases").

import type { Lease, Tombstone } from './outcomes.ts';
import { appendTo } from './persistent.ts';
import type { ModelState } from './state.ts';

export function withTombstone(
  state: ModelState,
  lease: Lease,
  cause: Tombstone['cause'],
  now: number,
  audit?: { readonly actor: string; readonly reason: string },
): { readonly state: ModelState; readonly tombstone: Tombstone } {
  const tombstone: Tombstone = {
    scope: lease.scope,
    holder: lease.holder,
    token: lease.token,
    endedAt: now,
    cause,
    ...(audit === undefined ? {} : { actor: audit.actor, reason: audit.reason }),
  };
  return { state: { ...state, tombstones: appendTo(state.tombstones, tombstone) }, tombstone };
}
