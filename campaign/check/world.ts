// The small world of the command-level check: few scopes, holders and ids, so that commands
// collide often — the same scope taken twice, a token presented after its lease moved on — and
// TTLs whose boundaries the clock steps land on exactly.

import { LEASE_TTL_MAX_MS, TOKEN_EPOCH_STRIDE } from '../../model/constants.ts';
import { scopeId, type ScopeKind, type ScopeRef } from '../../model/scope.ts';

function validScope(tenant: string, kind: ScopeKind, name: string): string {
  const ref: ScopeRef = { tenant, kind, name };
  const result = scopeId(ref);
  if (result.kind !== 'Scope') throw new Error(`the check's world has an invalid scope ${name}: ${result.reason}`);
  return result.id;
}

/** Lease scopes: two of one tenant, and the same name under a second tenant (tenant isolation, 000 §245). */
export const LEASE_SCOPES: ReadonlyArray<string> = [
  validScope('acme', 'DeploymentEnvironment', 'prod'),
  validScope('acme', 'DeploymentEnvironment', 'staging'),
  validScope('globex', 'DeploymentEnvironment', 'prod'),
];
/** The scope permits and reservations count against. */
export const CAPACITY_SCOPE = validScope('acme', 'Custom', 'signing');

export const HOLDERS: ReadonlyArray<string> = ['A', 'B', 'C'];
/**
 * The nodes whose processes make the calls (adapters/port.ts CallContext). Two are enough for a
 * call from another node, and a restart gives a node a new process (`n1#2`), as in the simulator.
 * Holders are drawn apart from nodes: a store must not tie a lease to the process that took it.
 */
export const NODES: ReadonlyArray<string> = ['n1', 'n2'];
export const IDS: ReadonlyArray<string> = ['1', '2', '3'];
export const ROLES: ReadonlyArray<string> = ['scheduler', 'site-authority'];
export const TENANTS: ReadonlyArray<string> = ['acme', 'globex'];

/**
 * The names the command arbitraries draw from: the small world above by default, the many scopes,
 * holders, ids and keys of the long profile there (profiles.ts).
 */
export interface World {
  readonly leaseScopes: ReadonlyArray<string>;
  readonly capacityScope: string;
  readonly holders: ReadonlyArray<string>;
  readonly ids: ReadonlyArray<string>;
  readonly tenants: ReadonlyArray<string>;
  readonly subjects: ReadonlyArray<string>;
  readonly keys: ReadonlyArray<string>;
  readonly aggregates: ReadonlyArray<string>;
}

export const SMALL_WORLD: World = {
  leaseScopes: LEASE_SCOPES,
  capacityScope: CAPACITY_SCOPE,
  holders: HOLDERS,
  ids: IDS,
  tenants: TENANTS,
  subjects: ['s', 't'],
  keys: ['k'],
  aggregates: ['x', 'y'],
};

/** A scope id of the world, which the rule book's scope rules accept. */
export function worldScope(tenant: string, kind: ScopeKind, name: string): string {
  return validScope(tenant, kind, name);
}

/** Valid TTLs; the clock steps by each of them and by one millisecond either side. */
export const TTLS: ReadonlyArray<number> = [50, 300, 1_000, 5_000];
/** TTLs every store must reject: zero, negative, past the maximum, not an integer. */
export const BAD_TTLS: ReadonlyArray<number> = [0, -1, LEASE_TTL_MAX_MS + 1, 1.5];
export const CLOCK_STEPS: ReadonlyArray<number> = [1, ...TTLS.flatMap((ttl) => [ttl - 1, ttl, ttl + 1])];
/** Retention of idempotency records: short enough to expire inside a run, and long. */
export const RETENTIONS: ReadonlyArray<number> = [100, 2_000, 2_000_000_000];
/** Offsets of the calling process's clock from store time; a correct store never reads it (000 §80). */
export const CALLER_SKEWS: ReadonlyArray<number> = [-3_000, -301, 0, 301, 3_000];

/** Literal tokens: the first few of recovery epochs 0 and 1 (mostly stale ones), and ones no store issues (tokens are integers by the port's type). */
export const LITERAL_TOKENS: ReadonlyArray<number> = [1, 2, 3, TOKEN_EPOCH_STRIDE + 1, TOKEN_EPOCH_STRIDE + 2];
export const BAD_TOKENS: ReadonlyArray<number> = [0, -1];

/** Store time at the start of every run. */
export const START_MS = 10_000;

/**
 * Placeholders, replaced when the step runs by what the reference state holds at that moment.
 * LIVE_TOKEN is the live lease's token in a lease command, and the job's current attempt token in
 * FinishJob and ReturnJob.
 */
export const LIVE_TOKEN = -424_242;
export const LIVE_HOLDER = '@live-holder';
export const LIVE_VERSION = -434_343;
/** The live lease's expiry, and one just off it (a renewal since it was observed). */
export const LIVE_EXPIRY = -454_545;
export const MOVED_EXPIRY = -464_646;
/** A waiter, permit, reservation or intent id that exists in the reference state (see resolve.ts). */
export const LIVE_ID = '@live-id';
/** An idempotency key that has a record: its tenant, operation, subject and key are taken from it. */
export const LIVE_KEY = '@live-key';
/** With LIVE_KEY: the record's own digest (the same request again); any other digest is a different request. */
export const LIVE_DIGEST = '@live-digest';
