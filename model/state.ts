// The reference model's durable state: everything a store keeps between commands. It is
// immutable; `step` returns a new state that shares every sub-map it did not change.

import type { EffectIntent, IdempotencyRecord, JobRow, Lease, Permit, Reservation, Tombstone, Waiter } from './outcomes.ts';
import type { AppendLog } from './persistent.ts';

export interface AggregateVersion {
  readonly version: number;
  /** The token of the last accepted mutation (§66–§70). */
  readonly lastToken: number;
}

export interface ModelState {
  readonly recoveryEpoch: number;
  /** Per scope, the last fencing token ever issued (0 when absent); never lowered. */
  readonly lastTokens: ReadonlyMap<string, number>;
  /** At most one lease row per scope; an expired row stays until it is replaced. */
  readonly leases: ReadonlyMap<string, Lease>;
  readonly tombstones: AppendLog<Tombstone> | null;
  /** Per scope, its waiters in enqueue order. */
  readonly queues: ReadonlyMap<string, ReadonlyArray<Waiter>>;
  /** Per waiter id, the scope it waits on (a waiter id is queued at most once anywhere). */
  readonly waiterScopes: ReadonlyMap<string, string>;
  /** The last enqueue sequence number handed out (global, starting at 1). */
  readonly waiterSeq: number;
  readonly capacities: ReadonlyMap<string, number>;
  /** Per scope, per permit id. Expired permits may be pruned: they are invisible. */
  readonly permits: ReadonlyMap<string, ReadonlyMap<string, Permit>>;
  /** Per scope, per reservation id, with the state last written (read state may be Expired). */
  readonly reservations: ReadonlyMap<string, ReadonlyMap<string, Reservation>>;
  readonly reservationScopes: ReadonlyMap<string, string>;
  /** Per (tenant, operation, subject) encoding, per key. */
  readonly idempotency: ReadonlyMap<string, ReadonlyMap<string, IdempotencyRecord>>;
  readonly intents: ReadonlyMap<string, EffectIntent>;
  /** Per scope, per aggregate id. */
  readonly aggregates: ReadonlyMap<string, ReadonlyMap<string, AggregateVersion>>;
  /** Scopes in BlockedForReconciliation (§237); the model's commands never quarantine a scope. */
  readonly blocked: ReadonlySet<string>;
  readonly roleEpochs: ReadonlyMap<string, number>;
  /** The jobs table, per job id (seed 001 §84–§85, §93). */
  readonly jobs: ReadonlyMap<string, JobRow>;
  /**
   * What a granted Renew does (absent: 'extends', the rule book's §21–§24): 'confirms', the
   * store's own variant, answers that the lease is still held and leaves its expiry where it was
   * (a lock without heartbeats). A property of the store the state belongs to: set once, at start.
   */
  readonly renewal?: RenewalKind;
}

/** What a granted Renew does to the lease's expiry: moves it to now + ttl, or only confirms it. */
export type RenewalKind = 'extends' | 'confirms';
export const RENEWAL_KINDS: ReadonlyArray<RenewalKind> = ['extends', 'confirms'];

const EMPTY_MAP: ReadonlyMap<never, never> = new Map<never, never>();
const EMPTY_SET: ReadonlySet<never> = new Set<never>();

/** The empty state; `renewal` 'confirms' for a store whose renewals do not extend (absent otherwise, so default states are unchanged). */
export function initialState(renewal: RenewalKind = 'extends'): ModelState {
  const base: ModelState = {
    recoveryEpoch: 0,
    lastTokens: EMPTY_MAP,
    leases: EMPTY_MAP,
    tombstones: null,
    queues: EMPTY_MAP,
    waiterScopes: EMPTY_MAP,
    waiterSeq: 0,
    capacities: EMPTY_MAP,
    permits: EMPTY_MAP,
    reservations: EMPTY_MAP,
    reservationScopes: EMPTY_MAP,
    idempotency: EMPTY_MAP,
    intents: EMPTY_MAP,
    aggregates: EMPTY_MAP,
    blocked: EMPTY_SET,
    roleEpochs: EMPTY_MAP,
    jobs: EMPTY_MAP,
  };
  return renewal === 'confirms' ? { ...base, renewal } : base;
}

/** The result of one command: the next state and the typed outcome. */
export interface Transition<O> {
  readonly state: ModelState;
  readonly outcome: O;
}

/** The live lease of a scope, if any (live iff now < expiresAt). */
export function liveLease(state: ModelState, scope: string, now: number): Lease | null {
  const lease = state.leases.get(scope);
  return lease !== undefined && now < lease.expiresAt ? lease : null;
}

export function isBlocked(state: ModelState, scope: string): boolean {
  return state.blocked.has(scope);
}
