// What an operator's request to the cluster (membership-requests.ts, maintenance-desk.ts) needs of
// the coordination service: the cluster, who leads with its role now, and the agenda.

import type { MaintenanceState } from '../../model/maintenance.ts';
import type { Sim } from '../engine.ts';
import type { Cluster, Links, Voter } from './cluster.ts';
import type { MembershipFault } from './faults.ts';
import type { PeerTrust } from './peer-trust.ts';

/** An operator retries a request that found no leader with a majority this often. */
export const OPERATOR_RETRY_MS = 100;

export interface OperatorHost {
  sim(): Sim;
  cluster(): Cluster;
  links(): Links;
  trust(): PeerTrust;
  /** The leader whose process runs and holds its role guard now, or null. */
  leaderWithGuard(): Voter | null;
  /** Puts `timer` on the coordination agenda at `at`; the service hands it back to its owner. */
  later(timer: OperatorTimer, at: number): void;
  quorumChanged(): void;
}

/** The agenda entries of operators' requests. */
export type OperatorTimer =
  | { readonly kind: 'membership'; readonly fault: MembershipFault }
  | { readonly kind: 'maintenance'; readonly state: MaintenanceState; readonly durationMs: number | null; readonly ends?: number }
  | { readonly kind: 'wan-heal'; readonly pairs: ReadonlyArray<readonly [string, string]> };
