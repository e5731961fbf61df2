// The shape of every outcome the store port allows, per command (model/outcomes.ts as schemas,
// each checked against its type by the compiler): an answer is validated against it before any
// checker or the reference model reads it (port-contract.ts), so a store that answers a string
// version or a lease without its token is a port-contract finding naming the call and the field,
// never a crash of the testbed. A lease's token is a positive safe integer (port-contract.ts);
// other fences are as a store without integer fences reads once translated (translatedToken).

import { z } from 'zod';
import type { CommandKind } from '../model/commands.ts';
import type { Outcomes } from '../model/outcomes.ts';

const int = z.number().int();
const count = int.nonnegative();
const time = z.number().finite();
const token = int.positive().max(Number.MAX_SAFE_INTEGER);
/**
 * A token as the answers of a store without integer fences read once translated (sim/fence-ids.ts):
 * no token is 0 or null there, and a DispatchJob's Busy may name none. Typed as a token, so that
 * the compiler still checks every schema against model/outcomes.ts.
 */
const translatedToken = int.nonnegative().nullable().optional() as unknown as typeof token;
const text = z.string();

const lease = z.object({ scope: text, holder: text, token, acquiredAt: time, expiresAt: time });
const tombstone = z.object({
  scope: text,
  holder: text,
  token: translatedToken,
  endedAt: time,
  cause: z.enum(['released', 'expired', 'handed-off', 'force-released', 'restored']),
  actor: text.optional(),
  reason: text.optional(),
});
const rejected = z.object({
  kind: z.literal('Rejected'),
  reason: z.enum(['ttl-out-of-bounds', 'blocked-for-reconciliation', 'quarantined', 'not-head-of-queue', 'unknown-waiter', 'invalid-argument', 'undefined-capacity']),
});
const stale = z.object({ kind: z.literal('Stale'), currentToken: token.nullable() });
const fenced = z.object({ kind: z.literal('Fenced'), role: text, currentEpoch: time });
const held = { scope: text, units: count, expiresAt: time };
const inUse = { inUse: count, capacity: count };
const permit = z.object({ ...held, permitId: text, holder: text });
const reservationState = z.enum(['Pending', 'Active', 'Consumed', 'Released', 'Expired', 'Failed']);
const reservation = z.object({ ...held, reservationId: text, owner: text, state: reservationState, createdAt: time });
const stored = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('Succeeded'), response: text }),
  z.object({ kind: z.literal('FailedTerminal'), error: text }),
  z.object({ kind: z.literal('Unknown') }),
]);
const effectState = z.enum(['Planned', 'Started', 'Succeeded', 'Failed', 'Unknown', 'Reconciled']);
// An intent carries whatever token its planner sent (the store checks it against nothing).
const intent = z.object({ intentId: text, scope: text, token: int.nullable().optional() as unknown as typeof int, operation: text, retrySafety: z.enum(['Idempotent', 'ProviderIdempotent', 'InspectBeforeRetry', 'ManualOnly']), state: effectState });
const job = z.object({ jobId: text, scope: text, status: z.enum(['eligible', 'leased', 'done']), attemptToken: count, attempts: count, seq: count });
const waiter = z.object({ scope: text, waiterId: text, holder: text, priority: int, enqueuedAt: time, seq: count });
const idempotencyRecord = z.object({
  tenant: text,
  operation: text,
  subject: text,
  key: text,
  digest: text,
  state: z.enum(['InProgress', 'Succeeded', 'FailedTerminal', 'Unknown']),
  outcome: stored.nullable(),
  createdAt: time,
  expiresAt: time,
});
const view = z.object({
  recoveryEpoch: count,
  leases: z.array(lease),
  tokens: z.array(z.object({ scope: text, lastToken: translatedToken })),
  tombstones: z.array(tombstone),
  waiters: z.array(waiter),
  capacities: z.array(z.object({ scope: text, capacity: count })),
  permits: z.array(permit),
  reservations: z.array(reservation),
  idempotency: z.array(idempotencyRecord),
  intents: z.array(intent),
  aggregates: z.array(z.object({ scope: text, aggregate: text, version: count, lastToken: translatedToken })),
  scopeStates: z.array(z.object({ scope: text, state: z.enum(['Free', 'Owned', 'Waiting', 'BlockedForReconciliation', 'Quarantined']) })),
  roleEpochs: z.array(z.object({ role: text, epoch: time })),
});

const kind = <K extends string>(k: K) => z.literal(k);
const acquireBusy = z.object({ kind: kind('Busy'), holder: text, token: translatedToken, expiresAt: time });
const transition = z.discriminatedUnion('kind', [
  z.object({ kind: kind('ReservationUpdated'), reservation }),
  z.object({ kind: kind('ReservationExpired') }),
  z.object({ kind: kind('InvalidState'), state: reservationState }),
  z.object({ kind: kind('NotFound') }),
]);
const attempt = <K extends 'JobFinished' | 'JobReturned'>(k: K) =>
  z.discriminatedUnion('kind', [z.object({ kind: kind(k), job }), z.object({ kind: kind('StaleAttempt'), job: job.nullable() })]);

export const OUTCOME_SCHEMAS: { readonly [K in CommandKind]: z.ZodType<Outcomes[K]> } = {
  Acquire: z.discriminatedUnion('kind', [z.object({ kind: kind('Acquired'), lease }), acquireBusy, rejected, fenced]),
  Renew: z.discriminatedUnion('kind', [z.object({ kind: kind('Renewed'), lease }), stale, z.object({ kind: kind('Expired') }), rejected]),
  Release: z.discriminatedUnion('kind', [z.object({ kind: kind('Released'), token: translatedToken }), stale]),
  Handoff: z.discriminatedUnion('kind', [z.object({ kind: kind('HandedOff'), lease }), stale, rejected]),
  ForceRelease: z.discriminatedUnion('kind', [
    z.object({ kind: kind('ForceReleased'), tombstone, nextToken: translatedToken }),
    stale,
    z.object({ kind: kind('Denied'), reason: z.enum(['not-privileged', 'reason-required']) }),
  ]),
  Enqueue: z.discriminatedUnion('kind', [z.object({ kind: kind('Enqueued'), position: count }), rejected]),
  CancelWait: z.discriminatedUnion('kind', [z.object({ kind: kind('WaitCancelled') }), z.object({ kind: kind('NotWaiting') })]),
  Mutate: z.discriminatedUnion('kind', [
    z.object({ kind: kind('Accepted'), version: count, token: translatedToken }),
    z.object({ kind: kind('StaleFence'), currentToken: token.nullable() }),
    z.object({ kind: kind('StaleVersion'), currentVersion: count }),
    fenced,
  ]),
  DefineCapacity: z.discriminatedUnion('kind', [z.object({ kind: kind('Defined'), capacity: count }), rejected]),
  AcquirePermit: z.discriminatedUnion('kind', [z.object({ kind: kind('Granted'), permit }), z.object({ kind: kind('Busy'), ...inUse }), rejected]),
  ReleasePermit: z.discriminatedUnion('kind', [z.object({ kind: kind('PermitReleased') }), z.object({ kind: kind('NotHeld') })]),
  Reserve: z.discriminatedUnion('kind', [z.object({ kind: kind('Reserved'), reservation }), z.object({ kind: kind('Overbooked'), ...inUse }), rejected]),
  ActivateReservation: transition,
  ConsumeReservation: transition,
  ReleaseReservation: transition,
  FailReservation: transition,
  AcquireAll: z.discriminatedUnion('kind', [
    z.object({ kind: kind('AcquiredAll'), leases: z.array(lease) }),
    z.object({ kind: kind('Busy'), scope: text, holder: text, token: translatedToken }),
    rejected,
  ]),
  IdempotencyBegin: z.discriminatedUnion('kind', [
    z.object({ kind: kind('New') }),
    z.object({ kind: kind('InProgress') }),
    z.object({ kind: kind('Replay'), outcome: stored }),
    z.object({ kind: kind('Conflict'), existingDigest: text }),
    z.object({ kind: kind('Unknown') }),
    rejected,
  ]),
  IdempotencyComplete: z.discriminatedUnion('kind', [
    z.object({ kind: kind('Recorded') }),
    z.object({ kind: kind('Conflict'), existingDigest: text }),
    z.object({ kind: kind('NotFound') }),
    z.object({ kind: kind('AlreadyFinal'), outcome: stored }),
  ]),
  PlanIntent: z.discriminatedUnion('kind', [z.object({ kind: kind('Planned'), intent }), z.object({ kind: kind('Duplicate'), intent })]),
  TransitionIntent: z.discriminatedUnion('kind', [
    z.object({ kind: kind('Transitioned'), intent }),
    z.object({ kind: kind('InvalidTransition'), from: effectState, to: effectState }),
    z.object({ kind: kind('NotFound') }),
  ]),
  AdvanceRecoveryEpoch: z.object({ kind: kind('RecoveryAdvanced'), recoveryEpoch: count, invalidated: count }),
  ReconcileScope: z.discriminatedUnion('kind', [z.object({ kind: kind('Reconciled') }), z.object({ kind: kind('NotBlocked') })]),
  AdvanceRoleEpoch: z.discriminatedUnion('kind', [z.object({ kind: kind('RoleEpochAdvanced'), role: text, epoch: time }), fenced]),
  SubmitJob: z.discriminatedUnion('kind', [z.object({ kind: kind('JobSubmitted'), job }), z.object({ kind: kind('JobExists'), job }), rejected]),
  DispatchJob: z.discriminatedUnion('kind', [
    z.object({ kind: kind('JobDispatched'), job, lease }),
    z.object({ kind: kind('NotDispatchable'), job: job.nullable() }),
    acquireBusy,
    rejected,
    fenced,
  ]),
  FinishJob: attempt('JobFinished'),
  ReturnJob: attempt('JobReturned'),
  ListJobs: z.object({ kind: kind('JobList'), jobs: z.array(job.extend({ attemptLive: z.boolean() })) }),
  Inspect: z.object({ kind: kind('Snapshot'), view }),
};

/** Where `outcome` departs from the shape of `command`'s outcomes (`lease.token: expected number, got string`); null when it does not. */
export function shapeBreach(command: CommandKind, outcome: unknown): string | null {
  const parsed = OUTCOME_SCHEMAS[command].safeParse(outcome);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  const at = issue.path.length === 0 ? 'the outcome' : issue.path.map(String).join('.');
  return `${at}: ${issue.message}`;
}
