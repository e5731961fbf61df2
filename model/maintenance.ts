// Global maintenance state (seed 001 §129–§133): one view agreed by the coordination layer, with
// a monotonic maintenance epoch. A destructive operation states the maintenance epoch it checked
// against; if the epoch moved since, its view is stale and it must look again before acting.

import { assert } from './assert.ts';
import type { CoordinatedRole } from './coordinated-role.ts';

export type MaintenanceState = 'Normal' | 'ReadOnly' | 'NoScheduling' | 'NoReleasePromotion' | 'FullMaintenance';

export type GatedOperation = 'schedule' | 'release-promotion' | 'deployment-switch' | 'write';

export interface Maintenance {
  readonly state: MaintenanceState;
  /** Monotonic (§131): every change raises it; it is never lowered or reused. */
  readonly epoch: number;
}

export const NORMAL: Maintenance = Object.freeze({ state: 'Normal', epoch: 0 });

export type MaintenanceChange =
  | { readonly kind: 'MaintenanceSet'; readonly maintenance: Maintenance }
  | { readonly kind: 'StaleMaintenanceEpoch'; readonly currentEpoch: number };

/** A change proposed under `expectedEpoch`: applied only if nobody changed the state since. */
export function setMaintenance(current: Maintenance, state: MaintenanceState, expectedEpoch: number): MaintenanceChange {
  assert(Number.isSafeInteger(current.epoch) && current.epoch >= 0, 'a maintenance epoch is a natural number');
  if (expectedEpoch !== current.epoch) return { kind: 'StaleMaintenanceEpoch', currentEpoch: current.epoch };
  const next: Maintenance = { state, epoch: current.epoch + 1 };
  assert(next.epoch > current.epoch, 'a maintenance change raises the epoch');
  return { kind: 'MaintenanceSet', maintenance: next };
}

/** Which operations each state stops (§129). Reads are never stopped. */
const BLOCKED: Readonly<Record<MaintenanceState, ReadonlyArray<GatedOperation>>> = {
  Normal: [],
  ReadOnly: ['schedule', 'release-promotion', 'deployment-switch', 'write'],
  NoScheduling: ['schedule'],
  NoReleasePromotion: ['release-promotion'],
  FullMaintenance: ['schedule', 'release-promotion', 'deployment-switch', 'write'],
};

export type MaintenanceGate =
  | { readonly kind: 'Allowed'; readonly epoch: number }
  | { readonly kind: 'Blocked'; readonly state: MaintenanceState; readonly epoch: number }
  | { readonly kind: 'StaleMaintenanceView'; readonly currentEpoch: number };

/**
 * The gate in front of a destructive operation: the caller names the epoch of the view it
 * decided on. A view older than the current epoch is stale, whatever it said (§131).
 */
export function gate(current: Maintenance, operation: GatedOperation, observedEpoch: number): MaintenanceGate {
  assert(observedEpoch <= current.epoch, 'nobody observes a maintenance epoch that was never set');
  if (observedEpoch < current.epoch) return { kind: 'StaleMaintenanceView', currentEpoch: current.epoch };
  if (BLOCKED[current.state].includes(operation)) return { kind: 'Blocked', state: current.state, epoch: current.epoch };
  return { kind: 'Allowed', epoch: current.epoch };
}

/** What each coordinated role's loop starts, as the maintenance gate names it (§129, §306). */
export const ROLE_OPERATION: Readonly<Record<CoordinatedRole, GatedOperation>> = {
  scheduler: 'schedule',
  'release-coordinator': 'release-promotion',
  'deployment-coordinator': 'deployment-switch',
};
