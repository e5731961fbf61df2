// Draws a plan from (scenario, seed): operations spread over the safety phase with the workload
// mix, scripted faults, random faults from the (possibly swarm-selected) profile, and clock skew.
// Each concern draws from its own named stream.

import type { ScopeKind } from '../model/scope.ts';
import { plannedScope, plannedSystemScope } from './scope-names.ts';
import type { RetrySafety } from '../model/effect-state.ts';
import type { ConcurrencyMode } from '../model/concurrency-group.ts';
import type { Scenario, WorkloadKind } from '../scenarios/schema.ts';
import { drawCoordinationFaults, drawFederationFaults, drawNemesisFaults, drawStartFaults } from '../faults/draws.ts';
import { faultOptions, swarmFaults } from '../faults/knobs.ts';
import type { FederationPlan, OpSpec, Plan, PlanStep } from './plan.ts';
import { coordinationOptions } from '../scenarios/coordination-options.ts';
import { federationOptions, homeSiteOfDomain, type FederationOptions } from '../scenarios/federation-options.ts';
import { streamFor, type Stream } from './prng.ts';

interface Profile {
  readonly scopeKind: ScopeKind;
  readonly operation: string;
  readonly retrySafety: RetrySafety;
  readonly fencing: boolean;
}

/** The provider operation each workload drives, with its declared retry safety (§191–§193). */
const PROFILES: Readonly<Record<WorkloadKind, Profile>> = {
  'env-deploy': { scopeKind: 'DeploymentEnvironment', operation: 'deploy', retrySafety: 'InspectBeforeRetry', fencing: true },
  'cancel-deploy': { scopeKind: 'DeploymentEnvironment', operation: 'deploy', retrySafety: 'InspectBeforeRetry', fencing: true },
  'infra-apply': { scopeKind: 'InfrastructureEnvironment', operation: 'apply', retrySafety: 'InspectBeforeRetry', fencing: true },
  'alias-publish': { scopeKind: 'ReleaseChannel', operation: 'publish-alias', retrySafety: 'ProviderIdempotent', fencing: true },
  migration: { scopeKind: 'DatabaseMigration', operation: 'migrate', retrySafety: 'ManualOnly', fencing: true },
  'device-reservation': { scopeKind: 'Device', operation: 'device-reset', retrySafety: 'Idempotent', fencing: false },
  'signing-slot': { scopeKind: 'Custom', operation: 'sign', retrySafety: 'Idempotent', fencing: false },
  'workflow-group': { scopeKind: 'WorkflowGroup', operation: 'run-pipeline', retrySafety: 'ProviderIdempotent', fencing: true },
  'api-request': { scopeKind: 'Custom', operation: 'api-create', retrySafety: 'ProviderIdempotent', fencing: false },
  'api-conflict': { scopeKind: 'Custom', operation: 'api-create', retrySafety: 'ProviderIdempotent', fencing: false },
  'multi-resource': { scopeKind: 'Custom', operation: 'provision', retrySafety: 'InspectBeforeRetry', fencing: true },
  'force-release': { scopeKind: 'DeploymentEnvironment', operation: 'force-release', retrySafety: 'ManualOnly', fencing: false },
  'cross-tenant': { scopeKind: 'DeploymentEnvironment', operation: 'deploy', retrySafety: 'InspectBeforeRetry', fencing: true },
  'job-attempt': { scopeKind: 'Custom', operation: 'batch-job', retrySafety: 'Idempotent', fencing: false },
  'reservation-saga': { scopeKind: 'Device', operation: 'device-reset', retrySafety: 'Idempotent', fencing: false },
  'verified-handoff': { scopeKind: 'DatabaseMigration', operation: 'migrate', retrySafety: 'ManualOnly', fencing: false },
  'role-takeover': { scopeKind: 'Custom', operation: 'lead', retrySafety: 'ManualOnly', fencing: false },
  // It misbehaves on the scopes the queued holders use, so that its force releases meet live leases.
  'misbehaving-client': { scopeKind: 'DatabaseMigration', operation: 'migrate', retrySafety: 'ManualOnly', fencing: false },
};

const GROUP_MODES: ReadonlyArray<ConcurrencyMode> = ['Queue', 'CancelPrevious', 'RejectNew', 'AllowParallel'];
const SIGNING_SCOPE = plannedSystemScope('Custom', 'signing-hsm');
const SIGNING_CAPACITY = 2;

function scopeFor(kind: WorkloadKind, tenant: string, index: number): string {
  const p = PROFILES[kind];
  const base = kind === 'cancel-deploy' || kind === 'cross-tenant' || kind === 'force-release' ? 'env-deploy' : kind === 'misbehaving-client' ? 'verified-handoff' : kind;
  return plannedScope({ tenant, kind: p.scopeKind, name: `${base}-${index}`, ...(p.scopeKind === 'WorkflowGroup' ? { project: 'forge' } : {}) });
}

/** Units one request asks for: 1, or drawn from 1..max when the workload allows more (no draw otherwise, so other plans stay as they were). */
function units(max: number, stream: Stream): number {
  return max > 1 ? stream.int(1, max) : 1;
}

function deviceScope(tenant: string, index: number): string {
  return plannedScope({ tenant, kind: 'Custom', name: `device-pool-${index}` });
}

/** The pool a reservation saga books, of BOOKING_CAPACITY units (apart from the device pools of capacity 1). */
function bookingScope(tenant: string, index: number): string {
  return plannedScope({ tenant, kind: 'Custom', name: `booking-pool-${index}` });
}

const BOOKING_CAPACITY = 2;
const SAGA_PATHS = ['consume', 'fail', 'direct', 'cancel'] as const;

/** A mix's weights in name order with their total, computed once per mix. */
const weightsOf = new WeakMap<Scenario['workload']['mix'], { readonly entries: ReadonlyArray<readonly [WorkloadKind, number]>; readonly total: number }>();

function pickKind(mix: Scenario['workload']['mix'], stream: Stream): WorkloadKind {
  let weights = weightsOf.get(mix);
  if (weights === undefined) {
    const sorted = (Object.keys(mix) as WorkloadKind[]).sort().map((k) => [k, mix[k] ?? 0] as const);
    weights = { entries: sorted, total: sorted.reduce((sum, [, w]) => sum + w, 0) };
    weightsOf.set(mix, weights);
  }
  const { entries, total } = weights;
  let roll = stream.int(1, total);
  for (const [kind, weight] of entries) {
    roll -= weight;
    if (roll <= 0) return kind;
  }
  return entries[entries.length - 1]![0];
}

function opFor(scenario: Scenario, n: number, stream: Stream): OpSpec {
  const w = scenario.workload;
  const kind = pickKind(w.mix, stream);
  const p = PROFILES[kind];
  const tenant = `t${stream.int(1, w.tenants)}`;
  const index = stream.int(1, w.scopes);
  const scope = scopeFor(kind, tenant, index);
  const id = `op${n}`;
  const base = {
    id,
    workload: kind,
    tenant,
    scope,
    aggregate: `${kind}-${index}`,
    operation: p.operation,
    retrySafety: p.retrySafety,
    fencing: p.fencing,
    wait: stream.chance(w.waitPct),
    priority: 0,
    workMs: stream.int(w.workMsMin, w.workMsMax),
    ttlMs: w.leaseTtlMs,
    ...(w.workStepMs > 0 ? { workStepMs: w.workStepMs } : {}),
    // Drawn only when asked for, so that the plans of every other scenario stay as they were.
    ...(w.handlerErrorPct > 0 && stream.chance(w.handlerErrorPct) ? { handlerFails: true } : {}),
  };
  switch (kind) {
    case 'signing-slot':
      return { ...base, scope: SIGNING_SCOPE, units: units(w.unitsMax, stream), wait: true };
    case 'device-reservation':
      return { ...base, units: units(w.unitsMax, stream), scopes: [deviceScope(tenant, index)] };
    case 'api-request':
    case 'api-conflict': {
      const key = `k${stream.int(1, Math.max(1, w.scopes * 4))}`;
      const digest = kind === 'api-conflict' ? `d-${id}` : `d-${key}`;
      const retry = w.retryAfterTerminalPct > 0 && stream.chance(w.retryAfterTerminalPct) ? { retryAfterTerminal: true } : {};
      return { ...base, wait: false, idempotency: { tenant, operation: 'api-create', subject: `subject-${index}`, key, digest }, ...retry };
    }
    case 'workflow-group': {
      const mode = GROUP_MODES[(index - 1) % GROUP_MODES.length]!;
      return { ...base, wait: true, group: { group: `group-${index}`, mode, supersedable: stream.chance(60) } };
    }
    case 'multi-resource': {
      const names = ['env', 'device', 'account'].map((name) => plannedScope({ tenant, kind: 'Custom', name: `${name}-${stream.int(1, w.scopes)}` }));
      const scopes = [...new Set(names)];
      // Requests list resources in whatever order they were written; canonical order is the controller's job.
      if (stream.chance(50)) scopes.reverse();
      return { ...base, scope: scopes[0]!, scopes, units: 1 };
    }
    case 'cancel-deploy':
      return { ...base, workMs: Math.max(base.workMs, 200), cancelAfterMs: stream.int(1, Math.max(2, base.workMs)) };
    case 'force-release':
      return { ...base, wait: false };
    case 'cross-tenant': {
      // A third of the requests name another tenant's environment: the controller must refuse them.
      const target = stream.chance(34) ? `t${stream.int(1, w.tenants)}` : tenant;
      return { ...base, priority: stream.int(0, 2), scopeRef: { tenant: target, kind: p.scopeKind, name: `env-deploy-${index}` } };
    }
    case 'reservation-saga':
      // Drawn only for this workload, so that the plans of every other scenario stay as they were.
      return { ...base, wait: false, units: units(w.unitsMax, stream), scopes: [bookingScope(tenant, index)], saga: SAGA_PATHS[stream.int(0, SAGA_PATHS.length - 1)]! };
    case 'job-attempt':
    case 'verified-handoff':
    case 'role-takeover':
    case 'misbehaving-client':
      return base;
    case 'migration':
    case 'env-deploy':
    case 'infra-apply':
    case 'alias-publish':
      return { ...base, priority: stream.int(0, 2) };
  }
}

/** A controller other than `node` (the same one when there is no other). */
function otherController(node: string, controllers: number, stream: Stream): string {
  if (controllers === 1) return node;
  const taken = Number(node.slice(1));
  const drawn = stream.int(1, controllers - 1);
  return `c${drawn >= taken ? drawn + 1 : drawn}`;
}

export function generatePlan(scenario: Scenario, seed: number): Plan {
  const w = scenario.workload;
  const profile = faultOptions(scenario.faults.profile);
  const faults = scenario.faults.swarm ? swarmFaults(profile, streamFor(seed, 'plan/swarm')) : profile;
  const opsStream = streamFor(seed, 'plan/ops');
  const steps: PlanStep[] = [];
  for (const fault of drawStartFaults(faults, w.controllers, streamFor(seed, 'plan/clocks'))) steps.push({ kind: 'fault', at: fault.at, fault });
  for (const fault of scenario.faults.scripted) steps.push({ kind: 'fault', at: fault.at, fault });
  for (const fault of drawNemesisFaults(faults, w.controllers, w.horizonMs, streamFor(seed, 'plan/nemesis'))) steps.push({ kind: 'fault', at: fault.at, fault });
  // Coordination faults draw from their own stream: plans of other scenarios do not change.
  const coordination = scenario.coordination === undefined ? undefined : coordinationOptions(scenario.coordination);
  if (coordination !== undefined) {
    for (const fault of drawCoordinationFaults(coordination.faults, coordination.voters, w.horizonMs, streamFor(seed, 'plan/coordination'))) steps.push({ kind: 'fault', at: fault.at, fault });
  }
  // Federation faults too, from a stream of their own.
  const federation = scenario.federation === undefined ? undefined : federationOptions(scenario.federation);
  const domains = Array.from({ length: w.tenants }, (_, i) => `t${i + 1}`);
  if (federation !== undefined) {
    for (const fault of drawFederationFaults({ ...federation, domains }, w.controllers, w.horizonMs, streamFor(seed, 'plan/federation'))) steps.push({ kind: 'fault', at: fault.at, fault });
  }
  // Operations start over the first 80% of the safety phase so most finish before faults heal.
  const spreadMs = Math.max(1, Math.floor((w.horizonMs * 4) / 5));
  let previous: { readonly at: number; readonly op: OpSpec; readonly node: string } | null = null;
  for (let n = 1; n <= scenario.operations; n++) {
    // No draw at all without bursts: plans of scenarios without them stay as they were.
    const burst: boolean = previous !== null && w.burstPct > 0 && previous.op.workload !== 'force-release' && opsStream.chance(w.burstPct);
    const op: OpSpec = burst ? { ...previous!.op, id: `op${n}` } : opFor(scenario, n, opsStream);
    const at: number = burst ? previous!.at : opsStream.int(0, spreadMs);
    const node: string = op.workload === 'force-release' ? 'operator' : burst ? otherController(previous!.node, w.controllers, opsStream) : `c${opsStream.int(1, w.controllers)}`;
    steps.push({ kind: 'op', at, node, op });
    previous = { at, op, node };
  }
  steps.sort((a, b) => a.at - b.at);
  const protectedScopes = new Set<string>();
  for (const step of steps) if (step.kind === 'op' && step.op.fencing) protectedScopes.add(step.op.scope);
  const capacities = new Map<string, number>();
  for (const step of steps) {
    if (step.kind !== 'op') continue;
    if (step.op.workload === 'signing-slot') capacities.set(SIGNING_SCOPE, SIGNING_CAPACITY);
    if (step.op.workload === 'device-reservation') for (const s of step.op.scopes ?? []) capacities.set(s, 1);
    if (step.op.workload === 'reservation-saga') for (const s of step.op.scopes ?? []) capacities.set(s, BOOKING_CAPACITY);
  }
  return {
    version: 1,
    scenario: scenario.name,
    seed,
    faults,
    swarm: scenario.faults.swarm,
    recoveryEpoch: scenario.mitigations.recoveryEpoch,
    controllers: w.controllers,
    rpcTimeoutMs: w.rpcTimeoutMs,
    waitTimeoutMs: w.waitTimeoutMs,
    ...(w.idempotencyRetentionMs === undefined ? {} : { idempotencyRetentionMs: w.idempotencyRetentionMs }),
    ...(w.holderNames === undefined || w.holderNames === 'incarnation' ? {} : { holderNames: w.holderNames }),
    ...(w.renewals ? {} : { renewals: false as const }),
    horizonMs: w.horizonMs,
    livenessBoundMs: scenario.liveness?.boundMs ?? Math.max(10_000, w.waitTimeoutMs + 5 * w.leaseTtlMs),
    protectedScopes: [...protectedScopes].sort(),
    invariants: [...scenario.invariants],
    capacities: [...capacities].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([scope, capacity]) => ({ scope, capacity })),
    steps,
    ...(coordination === undefined ? {} : { coordination }),
    ...(federation === undefined ? {} : { federation: federationPlan(federation, domains, steps) }),
  };
}

/** Each domain's first authority site and the scopes the plan's operations use in it. */
function federationPlan(options: FederationOptions, domains: ReadonlyArray<string>, steps: ReadonlyArray<PlanStep>): FederationPlan {
  const scopes = new Map(domains.map((domain) => [domain, new Set<string>()]));
  for (const step of steps) if (step.kind === 'op') scopes.get(step.op.tenant)?.add(step.op.scope);
  return { ...options, domains: domains.map((domain, i) => ({ domain, site: homeSiteOfDomain(i + 1, options.sites), scopes: [...scopes.get(domain)!].sort() })) };
}
