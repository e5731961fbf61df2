// Inspect (§153–§154, §214–§216): the normalized picture of the state at `now`, every list in the
// order model/SEMANTICS.md "Inspect" gives, so that two stores can be compared field by field.

import { assert } from './assert.ts';
import type { EffectIntent, IdempotencyRecord, Lease, Permit, Reservation, ScopeOperationalState, StoreView, Waiter } from './outcomes.ts';
import { logItems } from './persistent.ts';
import { compareText } from './text-order.ts';
import { readState } from './reservation-state.ts';
import { liveLease, type ModelState } from './state.ts';

function byKeys<T>(keys: (item: T) => ReadonlyArray<string>): (a: T, b: T) => number {
  return (a, b) => {
    const ka = keys(a);
    const kb = keys(b);
    for (let i = 0; i < ka.length; i++) {
      const order = compareText(ka[i]!, kb[i]!);
      if (order !== 0) return order;
    }
    return 0;
  };
}

function scopeState(state: ModelState, scope: string, now: number): ScopeOperationalState {
  if (state.blocked.has(scope)) return 'BlockedForReconciliation';
  if (liveLease(state, scope, now) !== null) return 'Owned';
  if ((state.queues.get(scope)?.length ?? 0) > 0) return 'Waiting';
  return 'Free';
}

export function viewOf(state: ModelState, now: number): StoreView {
  const leases: Lease[] = [];
  for (const lease of state.leases.values()) if (now < lease.expiresAt) leases.push(lease);
  const waiters: Waiter[] = [];
  for (const queue of state.queues.values()) waiters.push(...queue);
  const permits: Permit[] = [];
  for (const byId of state.permits.values()) for (const permit of byId.values()) if (now < permit.expiresAt) permits.push(permit);
  const reservations: Reservation[] = [];
  for (const byId of state.reservations.values()) {
    for (const reservation of byId.values()) reservations.push({ ...reservation, state: readState(reservation, now) });
  }
  const idempotency: IdempotencyRecord[] = [];
  for (const byKey of state.idempotency.values()) for (const record of byKey.values()) if (now < record.expiresAt) idempotency.push(record);
  const aggregates: { scope: string; aggregate: string; version: number; lastToken: number }[] = [];
  for (const [scope, byAggregate] of state.aggregates) {
    for (const [aggregate, version] of byAggregate) aggregates.push({ scope, aggregate, ...version });
  }
  const scopes = new Set<string>([...state.lastTokens.keys(), ...state.queues.keys(), ...state.capacities.keys(), ...state.blocked]);
  const intents: EffectIntent[] = [...state.intents.values()];

  const view: StoreView = {
    recoveryEpoch: state.recoveryEpoch,
    leases: leases.sort(byKeys((l) => [l.scope])),
    tokens: [...state.lastTokens].filter(([, token]) => token > 0).map(([scope, lastToken]) => ({ scope, lastToken })).sort(byKeys((t) => [t.scope])),
    tombstones: logItems(state.tombstones),
    waiters: waiters.sort((a, b) => a.seq - b.seq),
    capacities: [...state.capacities].map(([scope, capacity]) => ({ scope, capacity })).sort(byKeys((c) => [c.scope])),
    permits: permits.sort(byKeys((p) => [p.scope, p.permitId])),
    reservations: reservations.sort(byKeys((r) => [r.reservationId])),
    idempotency: idempotency.sort(byKeys((r) => [r.tenant, r.operation, r.subject, r.key])),
    intents: intents.sort(byKeys((i) => [i.intentId])),
    aggregates: aggregates.sort(byKeys((a) => [a.scope, a.aggregate])),
    scopeStates: [...scopes].sort(compareText).map((scope) => ({ scope, state: scopeState(state, scope, now) })),
    roleEpochs: [...state.roleEpochs].map(([role, epoch]) => ({ role, epoch })).sort(byKeys((r) => [r.role])),
  };
  assert(view.leases.length <= state.leases.size, 'the view shows only rows that exist');
  assert(view.tombstones.length === (state.tombstones?.length ?? 0), 'the view shows every tombstone');
  return view;
}
