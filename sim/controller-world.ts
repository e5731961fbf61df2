// Protocol-side state the simulated controllers share: the workflow-group service, running runs,
// the aggregate-version cache, effects a retired holder never observed, and the scopes waiting for
// the recovery procedure. Also the protocol's timing constants.

import type { GroupState } from '../model/concurrency-group.ts';
import type { Lease } from '../model/outcomes.ts';
import type { Node, Sim } from './engine.ts';
import type { OpSpec } from './plan.ts';
import { MAX_CLOCK_DRIFT_PPM } from '../scenarios/schema.ts';

/** Retention of API idempotency records (§55): longer than any run. */
export const API_RETENTION_MS = 3_600_000;
/** A controller re-checks a workflow group's queue, or an idempotency record in progress, at this local interval. */
export const WAIT_POLL_MS = 100;
/**
 * A waiter sleeps until the database notifies its scope (LISTEN/NOTIFY); it re-asks the store on
 * its own only at this long local interval, for a notification lost with its connection (§87).
 */
export const WAIT_FALLBACK_POLL_MS = 1_000;
/**
 * The share of a TTL a holder may count on after sending the call that granted or renewed its
 * lease, on its monotonic clock: that clock runs at most 10% slow (MAX_CLOCK_DRIFT_PPM), so the
 * window ends in true time no later than the store's expiry.
 */
export const LEASE_WINDOW_SHARE = 1 - MAX_CLOCK_DRIFT_PPM / 1_000_000;
/** How many times an operation is retried after its effect was found not applied. */
export const MAX_ATTEMPTS = 3;

export interface HeldLease {
  readonly lease: Lease;
  lost: boolean;
  released: boolean;
  /** Local time of the holder's last successful confirmation (a Renew before an effect). */
  confirmedAtLocal?: number;
  /** The handler run this lease serves (sim/handler-run.ts): a loss of the lease is the run's cancellation cause. */
  run?: HandlerRun;
}

/** Why a handler run was told to stop: a lease of it was refused or ran out of its window, or a user cancelled it. */
export type CancelCause = 'renewal-refused' | 'write-refused' | 'window-passed' | 'unconfirmed' | 'cancelled';

/**
 * One handler's run under its leases, from the grant to its classification (sim/handler-run.ts):
 * what the runtime knows of it, recorded as the `run` operation of its own process.
 */
export interface HandlerRun {
  /** Its process in the history: `<incarnation>:run<n>`. */
  readonly process: string;
  /** The cancellation cause, set once: the first loss or cancellation seen before the run was classified. */
  cause: CancelCause | null;
  /** The handler's own result, set when it returns. */
  result: 'ok' | 'error' | null;
  /** The cause as it stood when the handler returned (the snapshot the correct runtime classifies by). */
  causeAtReturn: CancelCause | null;
  /** Renewals of its refresh loops sent before the handler returned and not landed yet: the drain waits for them. */
  refreshing: number;
  classified: boolean;
}

export interface RunningJob {
  readonly op: OpSpec;
  readonly node: Node;
  cancelRequested: boolean;
  held: HeldLease | null;
}

export class World {
  readonly groups = new Map<string, GroupState>();
  readonly started = new Set<string>();
  readonly superseded = new Set<string>();
  readonly runs = new Map<string, RunningJob>();
  /** Aggregate versions a controller last saw (a cache: StaleVersion corrects it). */
  readonly versions = new Map<string, number>();
  /** Effects whose outcome a retired holder never observed, by holder process. */
  readonly unobserved = new Map<string, { intentId: string; scope: string }>();
  heartbeats = 0;
  /** Handler runs started, for their process names. */
  handlerRuns = 0;
  /** Grants a waiter took as a fresh confirmation, with the local time it read them (only a broken policy does). */
  readonly trustedGrants = new WeakMap<Lease, number>();
  /**
   * The end of each lease's local validity window, on its holder's monotonic clock: the send of the
   * last call that granted or renewed it, plus LEASE_WINDOW_SHARE of its TTL.
   */
  readonly leaseWindows = new WeakMap<Lease, number>();
  /** Scopes blocked by failover/restore that the recovery procedure has not reopened yet. */
  blockedPending: string[] = [];
  /** When the plan admitted each operation, by operation id (built on first use). */
  admissions: Map<string, number> | null = null;
}

export function world(sim: Sim): World {
  if (sim.world === null) sim.world = new World();
  return sim.world as World;
}

/** The name a controller holds leases under: its incarnation (`c1#2`), or its node (`c1`) when the plan says so. */
export function holderName(sim: Sim, node: Node): string {
  return sim.plan.holderNames === 'node' ? node.name : node.proc;
}
