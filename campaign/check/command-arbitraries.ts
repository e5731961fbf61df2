// One arbitrary per command kind of the store port, over the values of command-values.ts (the
// literals of a world, and in step format 3 the edges of each field's domain). Tokens, holders and
// versions are literal or placeholders filled from the live reference state, so that both the
// current owner's commands and stale ones occur often. The table is a full record over the
// command kinds: a new kind in the port does not compile until it has an arbitrary here. The job
// commands of step formats 2 and 3 name a job of the state and its current attempt (LIVE_JOBS).

import fc from 'fast-check';
import type { Command, CommandKind } from '../../model/commands.ts';
import type { StepFormat } from './step-format.ts';
import { EFFECT_STATES, RETRY_SAFETIES } from '../../model/effect-state.ts';
import { narrowValues, wideValues, type Values } from './command-values.ts';
import { LIVE_EXPIRY, LIVE_ID, MOVED_EXPIRY, SMALL_WORLD, type World } from './world.ts';

type Weighted = fc.WeightedArbitrary<Command>;

/** Present in one command of four: a guard or a waiter id is the exception, not the rule. */
function sometimes<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
}
/** Drops the keys whose value is undefined, so that optional fields are absent, not undefined. */
function present<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
const reservationKinds = ['ActivateReservation', 'ConsumeReservation', 'ReleaseReservation', 'FailReservation'] as const;

function weighted(weight: number, arbitrary: fc.Arbitrary<Command>): Weighted {
  return { weight, arbitrary };
}

/** The arbitraries of every command kind, as step format 1 drew them, over `v`. */
function commandTable(v: Values): Readonly<Record<CommandKind, Weighted>> {
  const { scope, capacityScope, holder, tokenHolder, id, liveId, ttl, token } = v;
  const guard = sometimes(fc.record({ role: v.role, epoch: v.epoch }));
  const reservationTransition = (kind: (typeof reservationKinds)[number]): Weighted => weighted(1, fc.record({ kind: fc.constant(kind), reservationId: liveId }));
  const expectedExpiresAt = sometimes(fc.constantFrom(LIVE_EXPIRY, LIVE_EXPIRY, MOVED_EXPIRY));
  return {
    Acquire: weighted(8, fc.record({ kind: fc.constant('Acquire' as const), scope, holder, ttlMs: ttl, waiterId: sometimes(liveId), guard }).map(present)),
    Renew: weighted(4, fc.record({ kind: fc.constant('Renew' as const), scope, holder: tokenHolder, expectedToken: token, ttlMs: ttl })),
    Release: weighted(3, fc.record({ kind: fc.constant('Release' as const), scope, holder: tokenHolder, token })),
    Handoff: weighted(2, fc.record({ kind: fc.constant('Handoff' as const), scope, holder: tokenHolder, token, newHolder: holder, ttlMs: ttl })),
    ForceRelease: weighted(
      2,
      fc.record({ kind: fc.constant('ForceRelease' as const), scope, expectedToken: token, expectedExpiresAt, actor: v.actor, reason: v.reason, privileged: fc.boolean() }).map(present),
    ),
    Enqueue: weighted(4, fc.record({ kind: fc.constant('Enqueue' as const), scope, waiterId: id, holder, priority: v.priority })),
    CancelWait: weighted(1, fc.record({ kind: fc.constant('CancelWait' as const), scope, waiterId: liveId })),
    Mutate: weighted(
      5,
      fc.record({ kind: fc.constant('Mutate' as const), scope, aggregate: v.aggregate, holder: tokenHolder, token, expectedVersion: v.expectedVersion, guard }).map(present),
    ),
    DefineCapacity: weighted(1, fc.record({ kind: fc.constant('DefineCapacity' as const), scope: capacityScope, capacity: v.capacity })),
    AcquirePermit: weighted(3, fc.record({ kind: fc.constant('AcquirePermit' as const), scope: capacityScope, permitId: id, holder, units: v.permitUnits, ttlMs: ttl })),
    ReleasePermit: weighted(1, fc.record({ kind: fc.constant('ReleasePermit' as const), scope: capacityScope, permitId: liveId })),
    Reserve: weighted(3, fc.record({ kind: fc.constant('Reserve' as const), scope: capacityScope, reservationId: id, owner: holder, units: v.reserveUnits, ttlMs: ttl })),
    ActivateReservation: reservationTransition('ActivateReservation'),
    ConsumeReservation: reservationTransition('ConsumeReservation'),
    ReleaseReservation: reservationTransition('ReleaseReservation'),
    FailReservation: reservationTransition('FailReservation'),
    AcquireAll: weighted(2, fc.record({ kind: fc.constant('AcquireAll' as const), scopes: v.scopes, holder, ttlMs: ttl })),
    IdempotencyBegin: weighted(
      3,
      fc.tuple(v.keyRef, v.retention, fc.boolean()).map(([ref, retentionMs, retryAfterTerminal]): Command => ({ kind: 'IdempotencyBegin', ...ref, retentionMs, retryAfterTerminal })),
    ),
    IdempotencyComplete: weighted(3, fc.tuple(v.keyRef, v.stored).map(([ref, outcome]): Command => ({ kind: 'IdempotencyComplete', ...ref, outcome }))),
    PlanIntent: weighted(2, fc.record({ kind: fc.constant('PlanIntent' as const), intentId: id, scope, token, operation: v.operation, retrySafety: fc.constantFrom(...RETRY_SAFETIES) })),
    TransitionIntent: weighted(2, fc.record({ kind: fc.constant('TransitionIntent' as const), intentId: liveId, to: fc.constantFrom(...EFFECT_STATES) })),
    AdvanceRecoveryEpoch: weighted(1, fc.record({ kind: fc.constant('AdvanceRecoveryEpoch' as const), atLeast: v.atLeast, blockScopes: v.scopes })),
    ReconcileScope: weighted(1, fc.record({ kind: fc.constant('ReconcileScope' as const), scope, actor: v.actor })),
    AdvanceRoleEpoch: weighted(1, fc.record({ kind: fc.constant('AdvanceRoleEpoch' as const), role: v.role, epoch: v.epoch })),
    SubmitJob: weighted(2, fc.record({ kind: fc.constant('SubmitJob' as const), jobId: id, scope })),
    DispatchJob: weighted(3, fc.record({ kind: fc.constant('DispatchJob' as const), jobId: id, holder, ttlMs: ttl, guard }).map(present)),
    FinishJob: weighted(2, fc.record({ kind: fc.constant('FinishJob' as const), jobId: id, token })),
    ReturnJob: weighted(1, fc.record({ kind: fc.constant('ReturnJob' as const), jobId: id, token })),
    ListJobs: weighted(1, fc.constant({ kind: 'ListJobs' as const })),
    Inspect: weighted(1, fc.constant({ kind: 'Inspect' as const })),
  };
}

/**
 * The job commands of step formats 2 and 3. A job's rules are about one job through its attempts,
 * which literal ids meet by chance and literal tokens almost never name: a dispatch names a job
 * waiting for an attempt, a finish or a give-back the job an attempt holds and (LIVE_TOKEN) that
 * attempt, mostly (resolve-ids.ts, resolve.ts). A rule about an attempt is met only after a
 * submission and a dispatch, so these are drawn so that the current attempt comes back twice in a
 * sequence (given back, then finished) within a few thousand sequences, without starving the
 * other kinds.
 */
function liveJobs(v: Values): Readonly<Partial<Record<CommandKind, Weighted>>> {
  const jobId = fc.oneof({ weight: 3, arbitrary: fc.constant(LIVE_ID) }, { weight: 1, arbitrary: v.id });
  const guard = sometimes(fc.record({ role: v.role, epoch: v.epoch }));
  return {
    DispatchJob: weighted(3, fc.record({ kind: fc.constant('DispatchJob' as const), jobId, holder: v.holder, ttlMs: v.ttl, guard }).map(present)),
    FinishJob: weighted(3, fc.record({ kind: fc.constant('FinishJob' as const), jobId, token: v.attemptToken })),
    ReturnJob: weighted(2, fc.record({ kind: fc.constant('ReturnJob' as const), jobId, token: v.attemptToken })),
  };
}

/** The table of format 1 over the small world: what `commandArbitrary` gives and `race` samples. */
const TABLE = commandTable(narrowValues(SMALL_WORLD));

/**
 * The weighted arbitraries of `kinds` (all kinds when absent), in the port's order, as step format
 * `format` draws them over `world` (default the small world): formats 1 and 2 with its literals
 * only, format 3 with the edges of each field's domain too.
 */
export function commandArbitraries(kinds: ReadonlyArray<CommandKind> | undefined, format: StepFormat, world: World = SMALL_WORLD): Weighted[] {
  const wanted = kinds === undefined ? null : new Set(kinds);
  const values = format === 3 ? wideValues(world) : narrowValues(world);
  const table = format === 1 ? commandTable(values) : { ...commandTable(values), ...liveJobs(values) };
  return ALL_COMMAND_KINDS.filter((kind) => wanted === null || wanted.has(kind)).map((kind) => table[kind]!);
}

/** The arbitrary of one command kind as format 1 draws it (templates: placeholders are filled by resolve.ts). */
export function commandArbitrary(kind: CommandKind): fc.Arbitrary<Command> {
  return TABLE[kind].arbitrary;
}

/** Every command kind of the port. */
export const ALL_COMMAND_KINDS: ReadonlyArray<CommandKind> = Object.keys(TABLE) as CommandKind[];
