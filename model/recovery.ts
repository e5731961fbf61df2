// Recovery after restore or failover (§228–§240, §269–§276, §297): a new recovery epoch
// invalidates every pre-restore lease and lifts every future token above the old range; the
// protected scopes named by the procedure stay BlockedForReconciliation until reconciled.

import { assert } from './assert.ts';
import type { AdvanceRecoveryEpochCommand, ReconcileScopeCommand } from './commands.ts';
import type { AdvanceRecoveryEpochResult, Lease, ReconcileScopeResult } from './outcomes.ts';
import { compareText } from './text-order.ts';
import type { ModelState, Transition } from './state.ts';
import { withTombstone } from './tombstone.ts';

export function advanceRecoveryEpoch(state: ModelState, command: AdvanceRecoveryEpochCommand, now: number): Transition<AdvanceRecoveryEpochResult> {
  const recoveryEpoch = Math.max(state.recoveryEpoch + 1, command.atLeast);
  assert(recoveryEpoch > state.recoveryEpoch, 'the recovery epoch only moves forward');
  const live: Lease[] = [];
  for (const lease of state.leases.values()) if (now < lease.expiresAt) live.push(lease);
  live.sort((a, b) => compareText(a.scope, b.scope));

  let next: ModelState = state;
  const leases = new Map(state.leases);
  for (const lease of live) {
    next = withTombstone(next, lease, 'restored', now).state;
    leases.delete(lease.scope);
  }
  const blocked = new Set(state.blocked);
  for (const scope of command.blockScopes) blocked.add(scope);
  next = { ...next, recoveryEpoch, leases, blocked };
  assert(next.leases.size === state.leases.size - live.length, 'exactly the live leases are invalidated');
  return { state: next, outcome: { kind: 'RecoveryAdvanced', recoveryEpoch, invalidated: live.length } };
}

export function reconcileScope(state: ModelState, command: ReconcileScopeCommand): Transition<ReconcileScopeResult> {
  if (!state.blocked.has(command.scope)) return { state, outcome: { kind: 'NotBlocked' } };
  const blocked = new Set(state.blocked);
  blocked.delete(command.scope);
  return { state: { ...state, blocked }, outcome: { kind: 'Reconciled' } };
}
