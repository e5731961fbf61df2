// The whole shape of a stored plan (sim/plan.ts), for failure files: a plan read back from disk
// must be one `executePlan` can play exactly as written. Every step needs its operation or fault,
// every node it names must exist in the plan, every time must fall inside the run (a step after
// the run's end would silently never happen), and the fault and coordination settings must be
// ones a plan can be drawn with. Anything else is a tampered or damaged file, refused up front.
// Fields this schema does not know are let through (the engine does not read them), so a plan
// format that grows a field does not make older readers refuse newer files.

import { z } from 'zod';
import { INVARIANT_NAMES } from '../model/checkers/index.ts';
import { COORDINATED_ROLES } from '../model/coordination-epoch.ts';
import { WORKLOAD_KINDS } from '../scenarios/schema.ts';
import { scriptedFaultSchema } from '../faults/index.ts';
import { coordinationOptions, coordinationSchema, type CoordinationInput } from '../scenarios/coordination-options.ts';
import { coordinationFaultsSchema } from '../faults/coordination-knobs.ts';
import { faultOptions, NO_FAULTS } from '../faults/knobs.ts';
import { federationFaultsSchema } from '../faults/federation-knobs.ts';

const count = z.number().int().nonnegative();
const positive = z.number().int().min(1);
const text = z.string().min(1);

const opSpec = z
  .object({
    id: text,
    workload: z.enum(WORKLOAD_KINDS),
    tenant: text,
    scope: text,
    scopes: z.array(text).min(1).optional(),
    aggregate: text,
    operation: text,
    retrySafety: z.enum(['Idempotent', 'ProviderIdempotent', 'InspectBeforeRetry', 'ManualOnly']),
    fencing: z.boolean(),
    wait: z.boolean(),
    priority: count,
    workMs: count,
    ttlMs: positive,
    idempotency: z.object({ tenant: text, operation: text, subject: text, key: text, digest: text }).loose().optional(),
    retryAfterTerminal: z.boolean().optional(),
    group: z.object({ group: text, mode: z.enum(['AllowParallel', 'Queue', 'CancelPrevious', 'RejectNew']), supersedable: z.boolean() }).loose().optional(),
    units: positive.optional(),
    cancelAfterMs: count.optional(),
    workStepMs: positive.optional(),
    handlerFails: z.boolean().optional(),
    saga: z.enum(['consume', 'fail', 'direct', 'cancel']).optional(),
  })
  .loose();

const step = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('op'), at: count, node: text, op: opSpec }).loose(),
  z.object({ kind: z.literal('fault'), at: count, fault: scriptedFaultSchema }).loose(),
]);

const faultKnobs = z
  .object(Object.fromEntries(Object.keys(NO_FAULTS).map((key) => [key, count])) as Record<keyof typeof NO_FAULTS, typeof count>)
  .strict();

/** Every field of a shape as a required count: a plan carries its settings resolved, none left to a default. */
const counts = (shape: Readonly<Record<string, unknown>>) => Object.fromEntries(Object.keys(shape).map((key) => [key, count]));

const coordination = z
  .object({ ...counts(coordinationSchema.shape), consensus: coordinationSchema.shape.consensus.unwrap(), role: z.enum(COORDINATED_ROLES), artifacts: z.boolean(), faults: z.object(counts(coordinationFaultsSchema.shape)).loose() })
  .loose();

const federation = z
  .object({
    sites: z.number().int().min(2).max(8),
    faults: z.object(counts(federationFaultsSchema.shape)).loose(),
    domains: z.array(z.object({ domain: text, site: z.number().int().min(1).max(8), scopes: z.array(text) }).loose()).min(1),
  })
  .loose();

/** A plan's coordination settings without the fields a newer testbed may have added (read as the plan's other settings are). */
function knownCoordination(settings: Readonly<Record<string, unknown>>): CoordinationInput {
  const known = (from: unknown, shape: object) => Object.fromEntries(Object.keys(shape).flatMap((key) => (typeof from === 'object' && from !== null && key in from ? [[key, (from as Record<string, unknown>)[key]]] : [])));
  return { ...known(settings, coordinationSchema.shape), faults: known(settings['faults'], coordinationFaultsSchema.shape) } as CoordinationInput;
}

/** The nodes a fault step names (controllers `c<n>`, `db`, `provider`, `operator`, or `leader`). */
function faultNodes(fault: z.infer<typeof scriptedFaultSchema>): ReadonlyArray<string> {
  return 'node' in fault ? [fault.node] : 'from' in fault ? [fault.from, fault.to] : [];
}

export const planSchema = z
  .object({
    version: z.literal(1),
    scenario: text,
    seed: count,
    faults: faultKnobs,
    swarm: z.boolean(),
    recoveryEpoch: z.boolean(),
    controllers: z.number().int().min(1).max(32),
    rpcTimeoutMs: positive,
    waitTimeoutMs: positive,
    idempotencyRetentionMs: positive.optional(),
    holderNames: z.enum(['incarnation', 'node']).optional(),
    renewals: z.literal(false).optional(),
    horizonMs: z.number().int().min(1).max(3_600_000),
    livenessBoundMs: positive,
    protectedScopes: z.array(text),
    capacities: z.array(z.object({ scope: text, capacity: positive }).loose()),
    invariants: z.array(z.enum(INVARIANT_NAMES)),
    steps: z.array(step),
    coordination: coordination.optional(),
    federation: federation.optional(),
  })
  .loose()
  .superRefine((plan, context) => {
    const problem = (path: ReadonlyArray<string | number>, message: string) => context.addIssue({ code: 'custom', path: [...path], message });
    const settings = (path: string, check: () => unknown) => {
      try {
        check();
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        problem([path], error.message);
      }
    };
    settings('faults', () => faultOptions(plan.faults));
    if (plan.coordination !== undefined) settings('coordination', () => coordinationOptions(knownCoordination(plan.coordination!)));
    const endMs = plan.horizonMs + plan.livenessBoundMs;
    const controller = (node: string) => /^c[1-9][0-9]?$/.test(node) && Number(node.slice(1)) <= plan.controllers;
    for (const [i, s] of plan.steps.entries()) {
      if (s.at > endMs) problem(['steps', i, 'at'], `${s.at} ms is after the run's end at ${endMs} ms (horizon ${plan.horizonMs} + liveness bound ${plan.livenessBoundMs}): the step could never happen`);
      if (s.kind === 'op') {
        if (!controller(s.node) && s.node !== 'operator') problem(['steps', i, 'node'], `unknown node '${s.node}': the plan has controllers c1..c${plan.controllers} and the operator`);
        continue;
      }
      if (s.fault.at !== s.at) problem(['steps', i, 'fault', 'at'], `the fault is at ${s.fault.at} ms but its step at ${s.at} ms`);
      for (const node of faultNodes(s.fault)) {
        if (/^c\d+$/.test(node) && !controller(node)) problem(['steps', i, 'fault'], `unknown node '${node}': the plan has controllers c1..c${plan.controllers}`);
      }
      if (s.fault.f.startsWith('member-') && plan.coordination === undefined) problem(['steps', i, 'fault', 'f'], `${s.fault.f} needs a plan with coordination`);
      if (s.fault.f.startsWith('site-') && plan.federation === undefined) problem(['steps', i, 'fault', 'f'], `${s.fault.f} needs a plan with federation`);
    }
  });
