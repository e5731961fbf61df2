// The scenario format: plain data (JSON-serializable), validated once on load. A scenario names
// its workload, its fault profile (random knobs plus scripted faults), the invariants that judge
// it, the seed sections it proves, its mitigations, and whether the correct implementation must
// pass it or whether it demonstrates a violation (`-unmitigated`).

import { z } from 'zod';
import { POLICY_FLAGS, policyFlips, type ControllerPolicy } from '../model/controller-policy.ts';
import { INVARIANT_NAMES } from '../model/checkers/index.ts';
import { FAULT_PACKAGES, scriptedFaultSchema, type ScriptedFault } from '../faults/index.ts';
import type { CoordinationFaultOptions } from '../faults/coordination-knobs.ts';
import type { FederationFaultOptions } from '../faults/federation-knobs.ts';
import { faultProfileSchema, type FaultKnobName } from '../faults/knobs.ts';
import { coordinationOptions, coordinationSchema, type CoordinationInput } from './coordination-options.ts';
import { federationSchema } from './federation-options.ts';

export { MAX_CLOCK_DRIFT_PPM } from '../faults/clock-skew.ts';
export { scriptedFaultSchema, type ScriptedFault } from '../faults/index.ts';

export const WORKLOAD_KINDS = [
  'env-deploy',
  'infra-apply',
  'alias-publish',
  'migration',
  'device-reservation',
  'signing-slot',
  'workflow-group',
  'api-request',
  'api-conflict',
  'multi-resource',
  'force-release',
  'cancel-deploy',
  'cross-tenant',
  // Those of `retried-and-late-requests` only (scenarios/catalog-retries.ts).
  'job-attempt',
  'reservation-saga',
  'verified-handoff',
  'role-takeover',
  'misbehaving-client',
] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

const kebab = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be kebab-case (a-z, 0-9, single dashes)');
const ms = z.number().int().nonnegative();
const pct = z.number().int().min(0).max(100);

const workload = z
  .object({
    controllers: z.number().int().min(1).max(32),
    tenants: z.number().int().min(1).max(16).default(1),
    /** Distinct scopes per workload kind and tenant. */
    scopes: z.number().int().min(1).max(64).default(2),
    mix: z.partialRecord(z.enum(WORKLOAD_KINDS), z.number().int().min(1).max(1000)),
    /** Length of the safety phase over which operations start, in ms. */
    horizonMs: z.number().int().min(1).max(3_600_000),
    leaseTtlMs: z.number().int().min(10).max(600_000).default(3_000),
    workMsMin: ms.default(50),
    workMsMax: ms.default(400),
    rpcTimeoutMs: z.number().int().min(1).default(1_000),
    /** Share (percent) of exclusive operations that enqueue and wait instead of trying once. */
    waitPct: pct.default(50),
    /** Longest a waiter waits before it gives up with CancelWait, in ms. */
    waitTimeoutMs: z.number().int().min(1).default(20_000),
    /**
     * How long an idempotent request's record is kept (its IdempotencyBegin `retentionMs`). Absent:
     * an hour, longer than any run. Shorter than a request takes, a record can expire while its
     * request still runs, and the key be taken by another request before the first completes.
     */
    idempotencyRetentionMs: z.number().int().min(1).optional(),
    /**
     * What a controller calls itself as the holder of its exclusive operations' leases (Acquire,
     * AcquireAll, and the effects under them; permits and jobs keep the incarnation).
     * 'incarnation' (the default): `c1#2`, a new name after each restart. 'node': `c1`, the same name across restarts, as a host name is — a
     * restarted node may then meet its own earlier lease, and a write delayed from that lease
     * carries the holder name of the new one, so only the token tells them apart (001 §12–13).
     */
    holderNames: z.enum(['incarnation', 'node']).optional(),
    /**
     * Whether holders renew their leases (default true). false: a holder counts on the TTL alone,
     * as code that sizes the TTL to its work does; work that runs long then ends, or releases, as
     * its lease expires.
     */
    renewals: z.boolean().default(true),
    /**
     * The most units one signing-slot permit or device reservation asks for (default 1): with
     * more, each asks for a number drawn from 1 to this, so a store that counts requests instead of
     * units, or checks only whether the pool is already full, lets the pool overflow.
     */
    unitsMax: z.number().int().min(1).max(100).default(1),
    /**
     * Share (percent) of idempotent requests that ask to start again after a terminal failure
     * (`retryAfterTerminal`, 000 §51). Such a request still never turns an Unknown record into a
     * new one (§53).
     */
    retryAfterTerminalPct: z.number().int().min(0).max(100).default(0),
    /**
     * Share (percent) of operations that repeat the one before on another controller at the same
     * instant: the same workload, scope and request (an idempotent request keeps its key and
     * digest, as a redelivered request does). Bursts of contending processes: a scheduled tick
     * on every instance, a request delivered twice.
     */
    burstPct: pct.default(0),
    /**
     * When above 0, the handler of an exclusive operation works in steps of this many local ms,
     * each a unit of unfenced work only a lease holder may do (a build writing its output, a
     * migration step), recorded as a `work-step` truth event (seed 002 "Why staged" 2; seed 003
     * 0892821). 0: the handler works in one piece and records no steps.
     */
    workStepMs: ms.default(0),
    /**
     * Share (percent) of operations whose handler returns an error once its work is done (a failed
     * post-deploy check), whatever its lease did: the run must be reported as an error, never
     * hidden behind a lease loss that came after the return (seed 003).
     */
    handlerErrorPct: pct.default(0),
  })
  .strict()
  .refine((w) => Object.keys(w.mix).length > 0, { message: 'workload.mix must name at least one workload kind' })
  .refine((w) => w.workMsMax >= w.workMsMin, { message: 'workload.workMsMax must be at least workMsMin' });

/** Policy flags a scenario flips (model/controller-policy.ts lists them, each with its correct value). */
const policyFlags = z.partialRecord(z.enum(POLICY_FLAGS as [keyof ControllerPolicy, ...Array<keyof ControllerPolicy>]), z.boolean());

/**
 * Random faults start only at nemesis ticks: these knobs do nothing while `nemesisIntervalMs` is 0
 * (the default), so a profile that sets one without an interval is refused rather than silently
 * run without faults.
 */
export const TICK_FAULT_KNOBS: ReadonlyArray<FaultKnobName> = tickKnobs('nemesis') as FaultKnobName[];
/** The same for coordination faults and their `intervalMs`. */
export const COORDINATION_TICK_FAULT_KNOBS: ReadonlyArray<keyof CoordinationFaultOptions> = tickKnobs('coordination') as Array<keyof CoordinationFaultOptions>;

/** The same for federation faults and their `intervalMs`. */
export const FEDERATION_TICK_FAULT_KNOBS: ReadonlyArray<keyof FederationFaultOptions> = tickKnobs('federation') as Array<keyof FederationFaultOptions>;

/** The knobs that turn on the kinds drawn at the ticks of `stage` (faults/). */
function tickKnobs(stage: 'nemesis' | 'coordination' | 'federation'): string[] {
  return Object.values(FAULT_PACKAGES).flatMap((p) => (p.draw?.on === stage ? [...(p.randomWhen ?? [])] : []));
}

type Profile = z.infer<typeof faultProfileSchema>;

/** Settings each valid on its own that no run can combine; each problem names its field. */
function inconsistencies(profile: Profile, coordinationInput: CoordinationInput | undefined, federationFaults: Partial<FederationFaultOptions> | undefined): Array<{ readonly path: string[]; readonly message: string }> {
  const problems: Array<{ path: string[]; message: string }> = [];
  const at = (...path: string[]) => ['faults', 'profile', ...path];
  if ((profile.networkDelayMsMin ?? 0) > (profile.networkDelayMsMax ?? 0)) {
    problems.push({ path: at('networkDelayMsMax'), message: `networkDelayMsMax (${profile.networkDelayMsMax ?? 0}) must be at least networkDelayMsMin (${profile.networkDelayMsMin})` });
  }
  const ticking = TICK_FAULT_KNOBS.filter((knob) => (profile[knob] ?? 0) > 0);
  if (ticking.length > 0 && (profile.nemesisIntervalMs ?? 0) === 0) {
    problems.push({ path: at('nemesisIntervalMs'), message: `${ticking.join(', ')} ${ticking.length === 1 ? 'takes' : 'take'} effect only at nemesis ticks: set nemesisIntervalMs above 0 (for example 300), or set them to 0` });
  }
  if (coordinationInput !== undefined) {
    try {
      coordinationOptions(coordinationInput);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      problems.push({ path: ['coordination'], message: error.message });
    }
    const faults = coordinationInput.faults ?? {};
    const coordinationTicking = COORDINATION_TICK_FAULT_KNOBS.filter((knob) => (faults[knob] ?? 0) > 0);
    if (coordinationTicking.length > 0 && (faults.intervalMs ?? 0) === 0) {
      problems.push({ path: ['coordination', 'faults', 'intervalMs'], message: `${coordinationTicking.join(', ')} ${coordinationTicking.length === 1 ? 'takes' : 'take'} effect only at coordination nemesis ticks: set intervalMs above 0, or set them to 0` });
    }
  }
  const federationTicking = FEDERATION_TICK_FAULT_KNOBS.filter((knob) => (federationFaults?.[knob] ?? 0) > 0);
  if (federationTicking.length > 0 && (federationFaults?.intervalMs ?? 0) === 0) {
    problems.push({ path: ['federation', 'faults', 'intervalMs'], message: `${federationTicking.join(', ')} ${federationTicking.length === 1 ? 'takes' : 'take'} effect only at federation nemesis ticks: set intervalMs above 0, or set them to 0` });
  }
  return problems;
}

/** Coordination fault knobs that only message-level consensus (`consensus: 'raft'`) acts on. */
const RAFT_FAULT_KNOBS = ['messageLossPct', 'messageDuplicatePct', 'newLeaderCrashPct', 'newLeaderIsolatePct', 'newLeaderIsolateMsMax', 'voterStateLossPct', 'voterStateLossDownMs', 'leaderTransferPct'] as const;

/** Invariants that judge what only message-level consensus records. */
const RAFT_INVARIANT = (name: string): boolean => name.startsWith('raft-') || name === 'feature-activation' || name === 'drained-leader-stops';

/** The nodes scripted faults name. */
function scriptedNodes(faults: ReadonlyArray<ScriptedFault>): ReadonlyArray<string> {
  return faults.flatMap((f) => ('node' in f ? [f.node] : 'from' in f ? [f.from, f.to] : []));
}

/** The workloads whose every lease (Acquire) and write (Mutate) carries the authority guard of a federated site. */
const FEDERATED_KINDS: ReadonlySet<string> = new Set(['env-deploy', 'infra-apply', 'alias-publish', 'cancel-deploy']);

/** The workloads run as exclusive operations, whose handler works in steps when `workStepMs` is set. */
const STEPPED_KINDS: ReadonlySet<string> = new Set(['env-deploy', 'infra-apply', 'alias-publish', 'migration', 'cancel-deploy', 'cross-tenant']);

export const scenarioSchema = z
  .object({
    name: kebab,
    title: z.string().min(1),
    sources: z.array(z.string().regex(/^00[0-3] (§\d+(–\d+)?|[a-z0-9-]+)$/, "must look like '000 §281', '000 §160–162' or '003 refresh-error'")).min(1),
    description: z.string().optional(),
    workload,
    faults: z
      .object({
        profile: faultProfileSchema.default({}),
        /** Swarm testing: the seed also picks which of the profile's faults are on. */
        swarm: z.boolean().default(false),
        scripted: z.array(scriptedFaultSchema).default([]),
      })
      .strict(),
    /** Checker names: exactly those model/checkers composes. */
    invariants: z.array(z.enum(INVARIANT_NAMES)).min(1),
    mitigations: z.object({ recoveryEpoch: z.boolean().default(true) }).strict().default({ recoveryEpoch: true }),
    policy: policyFlags.optional(),
    expect: z.enum(['pass', 'violation']),
    /** Target number of controller operations. */
    operations: z.number().int().min(1).max(10_000),
    liveness: z.object({ boundMs: z.number().int().min(1) }).strict().optional(),
    /** The controllers are coordination nodes (c1..c<voters> vote from the start); a scheduler leader dispatches the operations (seed 001). */
    coordination: coordinationSchema.optional(),
    /** The controllers are spread over federated sites; each tenant is a domain whose authority one site holds (seed 000 §163–§169). */
    federation: federationSchema.optional(),
  })
  .strict()
  .refine((s) => s.coordination === undefined || (s.coordination.voters ?? 3) <= s.workload.controllers, {
    message: 'coordination.voters must be at most workload.controllers: c1..c<voters> form the first configuration, the others may join later',
  })
  .refine((s) => scriptedNodes(s.faults.scripted).every((n) => !/^c\d+$/.test(n) || Number(n.slice(1)) <= s.workload.controllers), {
    message: 'a scripted fault names a controller c<n> beyond workload.controllers',
  })
  .refine((s) => s.coordination !== undefined || s.faults.scripted.every((f) => !f.f.startsWith('member-')), {
    message: 'membership faults (member-add, member-promote, member-remove) need coordination',
  })
  .refine((s) => s.coordination?.consensus === 'raft' || s.faults.scripted.every((f) => f.f !== 'voter-state-loss' && f.f !== 'voter-upgrade' && f.f !== 'leader-transfer'), {
    message: "voter-state-loss, voter-upgrade and leader-transfer act on message-level consensus: set coordination.consensus to 'raft'",
  })
  // Raft runs keep no quorum-loss record (the abstract service's): that checker would judge nothing.
  .refine((s) => s.coordination?.consensus !== 'raft' || !s.invariants.includes('quorum-loss-degraded'), {
    message: "quorum-loss-degraded judges the abstract service's quorum records: with coordination.consensus 'raft' leave it out",
  })
  .refine((s) => s.faults.scripted.every((f) => (f.f !== 'voter-state-loss' && f.f !== 'voter-upgrade') || Number(f.node.slice(1)) <= (s.coordination?.voters ?? 0)), {
    message: 'voter-state-loss and voter-upgrade name a voter: c<n> with n at most coordination.voters',
  })
  .refine((s) => (s.coordination !== undefined && s.coordination.consensus !== 'raft') || (s.faults.scripted.every((f) => f.f !== 'impostor' && f.f !== 'orchestrator-lease' && f.f !== 'maintenance' && f.f !== 'raw-proposal') && ['impostorPct', 'orchestratorLeasePct', 'maintenancePct', 'rawProposalPct'].every((knob) => (s.coordination?.faults?.[knob as 'impostorPct'] ?? 0) === 0)), {
    message: "impostor, orchestrator-lease, maintenance and raw-proposal faults act on the abstract consensus's daemons: they need coordination with consensus 'abstract'",
  })
  .refine((s) => (s.coordination?.artifacts ?? false) || (s.faults.scripted.every((f) => f.f !== 'cas-outage') && (s.coordination?.faults?.casOutagePct ?? 0) === 0), {
    message: 'cas-outage faults act on the artifact store: set coordination.artifacts to true',
  })
  .refine((s) => (s.coordination?.regions ?? 1) > 1 || (s.faults.scripted.every((f) => f.f !== 'wan-partition') && (s.coordination?.faults?.wanPartitionPct ?? 0) === 0), {
    message: 'wan-partition faults cut the links between regions: set coordination.regions above 1',
  })
  .refine((s) => (s.coordination?.regions ?? 1) === 1 || s.coordination?.consensus !== 'raft', {
    message: "coordination.regions above 1 runs with consensus 'abstract'",
  })
  .refine((s) => !(s.coordination?.artifacts ?? false) || s.coordination?.consensus !== 'raft', {
    message: "coordination.artifacts runs with consensus 'abstract'",
  })
  .refine((s) => s.coordination !== undefined || !s.invariants.includes('cluster-doctor'), {
    message: 'cluster-doctor judges the coordination state against the store: it needs coordination',
  })
  // What only message-level consensus has would judge nothing, or be ignored, on the abstract one.
  .refine((s) => s.coordination?.consensus === 'raft' || s.invariants.every((i) => !RAFT_INVARIANT(i)), {
    message: "the raft-* invariants, feature-activation and drained-leader-stops judge message-level consensus: set coordination.consensus to 'raft'",
  })
  .refine((s) => !s.invariants.some((name) => name === 'stream-gapless' || name === 'agents-reconnect') || (s.coordination?.agents ?? 0) > 0, {
    message: 'stream-gapless and agents-reconnect judge the agents: set coordination.agents above 0',
  })
  .refine((s) => !s.invariants.includes('raft-log-bounded') || (s.coordination?.snapshotEntries ?? 0) > 0, {
    message: 'raft-log-bounded judges log compaction: set coordination.snapshotEntries above 0',
  })
  .refine((s) => s.coordination?.consensus === 'raft' || (s.coordination?.snapshotEntries ?? 0) === 0, {
    message: "coordination.snapshotEntries compacts the message-level consensus log: set coordination.consensus to 'raft', or leave it 0",
  })
  .refine((s) => s.coordination?.consensus === 'raft' || RAFT_FAULT_KNOBS.every((knob) => (s.coordination?.faults?.[knob] ?? 0) === 0), {
    message: `coordination.faults ${RAFT_FAULT_KNOBS.join(', ')} act on message-level consensus: set coordination.consensus to 'raft', or set them to 0`,
  })
  // Only an exclusive operation's handler works in steps (sim/handler-work.ts); a scheduler's job attempt does not.
  .refine((s) => s.coordination === undefined || s.workload.workStepMs === 0, {
    message: 'workload.workStepMs needs a scenario without coordination: job attempts do not work in steps',
  })
  .refine((s) => !s.invariants.includes('work-within-lease') || (s.workload.workStepMs > 0 && Object.keys(s.workload.mix).some((k) => STEPPED_KINDS.has(k))), {
    message: 'work-within-lease judges work steps: set workload.workStepMs and mix an exclusive workload (env-deploy, infra-apply, alias-publish, migration, cancel-deploy, cross-tenant)',
  })
  .refine((s) => s.expect === 'pass' || s.name.endsWith('-unmitigated') || Object.keys(policyFlips(s.policy ?? {})).length > 0, {
    message: "a scenario that expects a violation is named '-unmitigated' or flips a policy flag",
  })
  .refine((s) => s.federation === undefined || s.coordination === undefined, {
    message: 'federation and coordination do not run together: a command carries one guard, the site authority or the coordinated role',
  })
  .refine((s) => s.federation !== undefined || (s.faults.scripted.every((f) => !f.f.startsWith('site-')) && !s.invariants.includes('site-authority-first')), {
    message: 'site-cut, site-failover and site-authority-first need federation',
  })
  .refine((s) => s.federation === undefined || s.invariants.includes('site-authority-first'), {
    message: 'a federated scenario is judged by site-authority-first',
  })
  .refine((s) => s.federation === undefined || Object.keys(s.workload.mix).every((k) => FEDERATED_KINDS.has(k)), {
    message: `federation runs the workloads whose every lease and write carries the site's authority guard: ${[...FEDERATED_KINDS].join(', ')}`,
  })
  .refine((s) => s.federation === undefined || s.federation.sites <= s.workload.controllers, {
    message: 'federation.sites must be at most workload.controllers: every site has a controller',
  })
  .refine((s) => s.faults.scripted.every((f) => (f.f !== 'site-cut' && (f.f !== 'site-failover' || f.to === undefined)) || (f.f === 'site-cut' ? f.site : f.to!) <= (s.federation?.sites ?? 0)), {
    message: 'a site fault names a site beyond federation.sites',
  })
  .refine((s) => s.faults.scripted.every((f) => f.f !== 'site-failover' || Number(f.domain.slice(1)) <= s.workload.tenants), {
    message: 'site-failover names a domain t<k> beyond workload.tenants',
  })
  .superRefine((s, context) => {
    for (const problem of inconsistencies(s.faults.profile, s.coordination, s.federation?.faults)) context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
