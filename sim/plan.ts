// A plan is everything a run will do, decided up front from (scenario, seed): controller
// operations with their start times and parameters, plus scripted and randomly drawn faults. It
// is plain JSON, so a shrinker can drop steps and `executePlan` still runs any sub-list.

import type { ConcurrencyMode } from '../model/concurrency-group.ts';
import type { ScopeKind } from '../model/scope.ts';
import type { RetrySafety } from '../model/effect-state.ts';
import type { WorkloadKind } from '../scenarios/schema.ts';
import type { ScriptedFault } from '../faults/index.ts';
import type { FaultOptions } from '../faults/knobs.ts';
import type { InvariantName } from '../model/checkers/index.ts';
import type { CoordinationOptions } from '../scenarios/coordination-options.ts';
import type { FederationOptions } from '../scenarios/federation-options.ts';

export type { ScriptedFault };

export interface IdempotencySpec {
  readonly tenant: string;
  readonly operation: string;
  readonly subject: string;
  readonly key: string;
  readonly digest: string;
}

export interface OpSpec {
  readonly id: string;
  readonly workload: WorkloadKind;
  readonly tenant: string;
  /** Primary scope (a ScopeId from model/scope.ts). */
  readonly scope: string;
  /** Every scope of a multi-resource operation, in the order the request lists them. */
  readonly scopes?: ReadonlyArray<string>;
  readonly aggregate: string;
  /** Provider operation name and its declared retry safety (§193). */
  readonly operation: string;
  readonly retrySafety: RetrySafety;
  /** The provider operation accepts an expected token (precondition) (§28). */
  readonly fencing: boolean;
  readonly wait: boolean;
  readonly priority: number;
  readonly workMs: number;
  readonly ttlMs: number;
  readonly idempotency?: IdempotencySpec;
  /** The idempotent request asks to start again after a terminal failure (IdempotencyBegin `retryAfterTerminal`). */
  readonly retryAfterTerminal?: boolean;
  readonly group?: { readonly group: string; readonly mode: ConcurrencyMode; readonly supersedable: boolean };
  /** Permit or reservation units. */
  readonly units?: number;
  /** Cancellation requested this long after the operation starts (§115–§116). */
  readonly cancelAfterMs?: number;
  /** A reference the controller resolves for its tenant at run time (cross-tenant requests, §242–§250). */
  readonly scopeRef?: { readonly tenant: string; readonly kind: ScopeKind; readonly name: string };
  /** After its effect the holder hands the lease to a verifier instead of releasing it (§110–§114). */
  readonly handoff?: boolean;
  /** An exclusive operation's handler works in steps of this many local ms, each recorded as a `work-step` (absent: in one piece). */
  readonly workStepMs?: number;
  /** The handler of a leased operation returns an error once its work is done (a failed check), whatever its lease did (sim/handler-run.ts). */
  readonly handlerFails?: boolean;
  /** What a reservation-saga's executor does with its booking (sim/reservation-saga-workload.ts); that workload only. */
  readonly saga?: 'consume' | 'fail' | 'direct' | 'cancel';
}

/** The federation of a plan: its sites and fault knobs, and each domain with the site that holds its authority first. */
export interface FederationPlan extends FederationOptions {
  /** Each domain (a tenant of the workload), its first authority site, and the scopes the plan's operations use in it. */
  readonly domains: ReadonlyArray<{ readonly domain: string; readonly site: number; readonly scopes: ReadonlyArray<string> }>;
}

export type PlanStep =
  | { readonly kind: 'op'; readonly at: number; readonly node: string; readonly op: OpSpec }
  | { readonly kind: 'fault'; readonly at: number; readonly fault: ScriptedFault };

export interface Plan {
  readonly version: 1;
  readonly scenario: string;
  readonly seed: number;
  /** The fault knobs in force (after swarm selection): what a CLI prints at start. */
  readonly faults: FaultOptions;
  readonly swarm: boolean;
  readonly recoveryEpoch: boolean;
  readonly controllers: number;
  readonly rpcTimeoutMs: number;
  readonly waitTimeoutMs: number;
  /** The retention of idempotent requests' records, where the scenario sets one (else an hour). */
  readonly idempotencyRetentionMs?: number;
  /** 'node' when a controller holds leases under its node's name across restarts (else its incarnation's). */
  readonly holderNames?: 'incarnation' | 'node';
  /** false when holders never renew their leases, counting on the TTL alone. */
  readonly renewals?: false;
  /** End of the safety phase; faults heal here and the liveness phase starts. */
  readonly horizonMs: number;
  /** Every waiter must have completed this long after the liveness phase starts. */
  readonly livenessBoundMs: number;
  /** Scopes kept BlockedForReconciliation after failover or restore (§237, §275). */
  readonly protectedScopes: ReadonlyArray<string>;
  readonly capacities: ReadonlyArray<{ readonly scope: string; readonly capacity: number }>;
  /** Checker names that judge the run. */
  readonly invariants: ReadonlyArray<InvariantName>;
  readonly steps: ReadonlyArray<PlanStep>;
  /** Present when the controllers are coordination voters (seed 001): the scheduler leader dispatches the operations. */
  readonly coordination?: CoordinationOptions;
  /** Present when the controllers are spread over federated sites (seed 000 §163–§169): each domain's leases and writes carry its site's authority guard. */
  readonly federation?: FederationPlan;
}

