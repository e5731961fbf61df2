// One arbitrary per command kind of the store port, over the small world of world.ts. Tokens,
// holders and versions are literal or placeholders filled from the live reference state, so that
// both the current owner's commands and stale ones occur often. The table is a full record over
// the command kinds: a new kind in the port does not compile until it has an arbitrary here. The
// job commands of step format 2 name a job of the state and its current attempt (LIVE_JOBS).

import fc from 'fast-check';
import type { Command, CommandKind } from '../../model/commands.ts';
import type { StepFormat } from './step-format.ts';
import { EFFECT_STATES, RETRY_SAFETIES } from '../../model/effect-state.ts';
import {
  BAD_TOKENS, BAD_TTLS, CAPACITY_SCOPE, HOLDERS, IDS, LEASE_SCOPES, LITERAL_TOKENS, LIVE_EXPIRY, LIVE_HOLDER, LIVE_TOKEN, LIVE_VERSION, MOVED_EXPIRY,
  LIVE_DIGEST, LIVE_ID, LIVE_KEY, RETENTIONS, ROLES, TENANTS, TTLS,
} from './world.ts';

type Weighted = fc.WeightedArbitrary<Command>;

const scope = fc.constantFrom(...LEASE_SCOPES);
/** Capacity commands mostly hit the capacity scope, sometimes a lease scope with no capacity. */
const capacityScope = fc.oneof({ weight: 5, arbitrary: fc.constant(CAPACITY_SCOPE) }, { weight: 1, arbitrary: scope });
const holder = fc.constantFrom(...HOLDERS);
const tokenHolder = fc.oneof({ weight: 3, arbitrary: fc.constant(LIVE_HOLDER) }, { weight: 1, arbitrary: holder });
const id = fc.constantFrom(...IDS);
/** An id that exists in the state more often than not (a waiter at the head of its queue, the newest reservation…). */
const liveId = fc.oneof({ weight: 2, arbitrary: fc.constant(LIVE_ID) }, { weight: 1, arbitrary: id });
const ttl = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...TTLS) }, { weight: 1, arbitrary: fc.constantFrom(...BAD_TTLS) });
const token = fc.oneof(
  { weight: 6, arbitrary: fc.constant(LIVE_TOKEN) },
  { weight: 3, arbitrary: fc.constantFrom(...LITERAL_TOKENS) },
  { weight: 1, arbitrary: fc.constantFrom(...BAD_TOKENS) },
);
const role = fc.constantFrom(...ROLES);
const epoch = fc.integer({ min: -1, max: 3 });

/** Present in one command of four: a guard or a waiter id is the exception, not the rule. */
function sometimes<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
}
/** Drops the keys whose value is undefined, so that optional fields are absent, not undefined. */
function present<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
const guard = sometimes(fc.record({ role, epoch }));
const keyRef = fc.record({
  tenant: fc.constantFrom(...TENANTS),
  operation: fc.constant('publish'),
  subject: fc.constantFrom('s', 't'),
  // Half the time the key of a record that exists: its next Begin or Complete meets that record.
  key: fc.constantFrom('k', LIVE_KEY),
  digest: fc.constantFrom('d1', 'd2', LIVE_DIGEST),
});
const stored = fc.oneof(
  fc.record({ kind: fc.constant('Succeeded' as const), response: fc.constantFrom('ok', 'other') }),
  fc.record({ kind: fc.constant('FailedTerminal' as const), error: fc.constant('no') }),
  fc.constant({ kind: 'Unknown' as const }),
);
const reservationKinds = ['ActivateReservation', 'ConsumeReservation', 'ReleaseReservation', 'FailReservation'] as const;

function weighted(weight: number, arbitrary: fc.Arbitrary<Command>): Weighted {
  return { weight, arbitrary };
}

const reservationTransition = (kind: (typeof reservationKinds)[number]): Weighted =>
  weighted(1, fc.record({ kind: fc.constant(kind), reservationId: liveId }));

const TABLE: Readonly<Record<CommandKind, Weighted>> = {
  Acquire: weighted(8, fc.record({ kind: fc.constant('Acquire' as const), scope, holder, ttlMs: ttl, waiterId: sometimes(liveId), guard }).map(present)),
  Renew: weighted(4, fc.record({ kind: fc.constant('Renew' as const), scope, holder: tokenHolder, expectedToken: token, ttlMs: ttl })),
  Release: weighted(3, fc.record({ kind: fc.constant('Release' as const), scope, holder: tokenHolder, token })),
  Handoff: weighted(2, fc.record({ kind: fc.constant('Handoff' as const), scope, holder: tokenHolder, token, newHolder: holder, ttlMs: ttl })),
  ForceRelease: weighted(
    2,
    fc
      .record({ kind: fc.constant('ForceRelease' as const), scope, expectedToken: token, expectedExpiresAt: sometimes(fc.constantFrom(LIVE_EXPIRY, LIVE_EXPIRY, MOVED_EXPIRY)), actor: fc.constant('ops'), reason: fc.constantFrom('stuck', '', ' '), privileged: fc.boolean() })
      .map(present),
  ),
  Enqueue: weighted(4, fc.record({ kind: fc.constant('Enqueue' as const), scope, waiterId: id, holder, priority: fc.integer({ min: -2, max: 2 }) })),
  CancelWait: weighted(1, fc.record({ kind: fc.constant('CancelWait' as const), scope, waiterId: liveId })),
  Mutate: weighted(
    5,
    fc
      .record({
        kind: fc.constant('Mutate' as const),
        scope,
        aggregate: fc.constantFrom('x', 'y'),
        holder: tokenHolder,
        token,
        expectedVersion: fc.oneof({ weight: 3, arbitrary: fc.constant(LIVE_VERSION) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 }) }),
        guard,
      })
      .map(present),
  ),
  DefineCapacity: weighted(1, fc.record({ kind: fc.constant('DefineCapacity' as const), scope: capacityScope, capacity: fc.integer({ min: -1, max: 3 }) })),
  AcquirePermit: weighted(
    3,
    fc.record({ kind: fc.constant('AcquirePermit' as const), scope: capacityScope, permitId: id, holder, units: fc.integer({ min: 0, max: 3 }), ttlMs: ttl }),
  ),
  ReleasePermit: weighted(1, fc.record({ kind: fc.constant('ReleasePermit' as const), scope: capacityScope, permitId: liveId })),
  Reserve: weighted(
    3,
    fc.record({ kind: fc.constant('Reserve' as const), scope: capacityScope, reservationId: id, owner: holder, units: fc.integer({ min: 0, max: 2 }), ttlMs: ttl }),
  ),
  ActivateReservation: reservationTransition('ActivateReservation'),
  ConsumeReservation: reservationTransition('ConsumeReservation'),
  ReleaseReservation: reservationTransition('ReleaseReservation'),
  FailReservation: reservationTransition('FailReservation'),
  AcquireAll: weighted(2, fc.record({ kind: fc.constant('AcquireAll' as const), scopes: fc.subarray([...LEASE_SCOPES]), holder, ttlMs: ttl })),
  IdempotencyBegin: weighted(
    3,
    fc
      .tuple(keyRef, fc.constantFrom(...RETENTIONS), fc.boolean())
      .map(([ref, retentionMs, retryAfterTerminal]): Command => ({ kind: 'IdempotencyBegin', ...ref, retentionMs, retryAfterTerminal })),
  ),
  IdempotencyComplete: weighted(3, fc.tuple(keyRef, stored).map(([ref, outcome]): Command => ({ kind: 'IdempotencyComplete', ...ref, outcome }))),
  PlanIntent: weighted(
    2,
    fc.record({ kind: fc.constant('PlanIntent' as const), intentId: id, scope, token, operation: fc.constant('rollout'), retrySafety: fc.constantFrom(...RETRY_SAFETIES) }),
  ),
  TransitionIntent: weighted(2, fc.record({ kind: fc.constant('TransitionIntent' as const), intentId: liveId, to: fc.constantFrom(...EFFECT_STATES) })),
  AdvanceRecoveryEpoch: weighted(1, fc.record({ kind: fc.constant('AdvanceRecoveryEpoch' as const), atLeast: fc.integer({ min: 0, max: 2 }), blockScopes: fc.subarray([...LEASE_SCOPES]) })),
  ReconcileScope: weighted(1, fc.record({ kind: fc.constant('ReconcileScope' as const), scope, actor: fc.constant('ops') })),
  AdvanceRoleEpoch: weighted(1, fc.record({ kind: fc.constant('AdvanceRoleEpoch' as const), role, epoch })),
  SubmitJob: weighted(2, fc.record({ kind: fc.constant('SubmitJob' as const), jobId: id, scope })),
  DispatchJob: weighted(3, fc.record({ kind: fc.constant('DispatchJob' as const), jobId: id, holder, ttlMs: ttl, guard }).map(present)),
  FinishJob: weighted(2, fc.record({ kind: fc.constant('FinishJob' as const), jobId: id, token })),
  ReturnJob: weighted(1, fc.record({ kind: fc.constant('ReturnJob' as const), jobId: id, token })),
  ListJobs: weighted(1, fc.constant({ kind: 'ListJobs' as const })),
  Inspect: weighted(1, fc.constant({ kind: 'Inspect' as const })),
};

/**
 * The job commands of step format 2. A job's rules are about one job through its attempts, which
 * literal ids meet by chance and literal tokens almost never name: a dispatch names a job waiting
 * for an attempt, a finish or a give-back the job an attempt holds and (LIVE_TOKEN) that attempt,
 * mostly (resolve-ids.ts, resolve.ts). A rule about an attempt is met only after a submission and a
 * dispatch, so these are drawn so that the current attempt comes back twice in a sequence (given
 * back, then finished) within a few thousand sequences, without starving the other kinds.
 */
const jobId = fc.oneof({ weight: 3, arbitrary: fc.constant(LIVE_ID) }, { weight: 1, arbitrary: id });
const attemptToken = fc.oneof(
  { weight: 12, arbitrary: fc.constant(LIVE_TOKEN) },
  { weight: 3, arbitrary: fc.constantFrom(...LITERAL_TOKENS) },
  { weight: 1, arbitrary: fc.constantFrom(...BAD_TOKENS) },
);
const LIVE_JOBS: Readonly<Partial<Record<CommandKind, Weighted>>> = {
  DispatchJob: weighted(3, fc.record({ kind: fc.constant('DispatchJob' as const), jobId, holder, ttlMs: ttl, guard }).map(present)),
  FinishJob: weighted(3, fc.record({ kind: fc.constant('FinishJob' as const), jobId, token: attemptToken })),
  ReturnJob: weighted(2, fc.record({ kind: fc.constant('ReturnJob' as const), jobId, token: attemptToken })),
};

/** The weighted arbitraries of `kinds` (all kinds when absent), in the port's order, as step format `format` draws them. */
export function commandArbitraries(kinds: ReadonlyArray<CommandKind> | undefined, format: StepFormat): Weighted[] {
  const wanted = kinds === undefined ? null : new Set(kinds);
  const table = format === 1 ? TABLE : { ...TABLE, ...LIVE_JOBS };
  return (Object.keys(TABLE) as CommandKind[]).filter((kind) => wanted === null || wanted.has(kind)).map((kind) => table[kind]!);
}

/** The arbitrary of one command kind as format 1 draws it (templates: placeholders are filled by resolve.ts). */
export function commandArbitrary(kind: CommandKind): fc.Arbitrary<Command> {
  return TABLE[kind].arbitrary;
}

/** Every command kind of the port. */
export const ALL_COMMAND_KINDS: ReadonlyArray<CommandKind> = Object.keys(TABLE) as CommandKind[];
