// The stress workflows of the command kinds the judged workflows (client.ts) do not send: jobs,
// handoffs, forced releases, waiters, intents, role epochs, reconciliation, reservation
// transitions, capacity definitions and reads. They run on side scopes of their own
// (world.sideScopes) and take their leases only through DispatchJob, so the lease and fencing
// checks, which judge Acquire grants on the main scopes, never see a lease these flows move or
// end; what they answer is recorded in the history and counted by kind like every command.

import type { Command } from '../../model/commands.ts';
import type { Lease, OutcomeOf } from '../../model/outcomes.ts';
import type { Stream } from '../../sim/prng.ts';
import type { StressWorld } from './world.ts';

export interface SideContext {
  readonly random: Stream;
  readonly name: string;
  readonly world: StressWorld;
  readonly send: <C extends Command>(command: C) => Promise<OutcomeOf<C>>;
  readonly supports: (kind: Command['kind']) => boolean;
  readonly serial: { next: number };
}

const pause = (ms: number): Promise<void> => (ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms)));

/** The kinds a side flow needs to start: submitting and dispatching a job. */
export const SIDE_NEEDS: ReadonlyArray<Command['kind']> = ['SubmitJob', 'DispatchJob'];

/** A job on a side scope, dispatched, then one of the things a holder or an operator does with its lease. */
export async function sideJob(ctx: SideContext): Promise<void> {
  const { random, name, world, send, supports } = ctx;
  const scope = random.pick(world.sideScopes);
  const jobId = `${name}-j${++ctx.serial.next}`;
  const submitted = await send({ kind: 'SubmitJob', jobId, scope });
  if (submitted.kind !== 'JobSubmitted') return;
  // A waiter ahead of the dispatch, sometimes, which then gives up.
  if (supports('Enqueue') && random.chance(20)) {
    const waiterId = `${name}-w${ctx.serial.next}`;
    const queued = await send({ kind: 'Enqueue', scope, waiterId, holder: name, priority: random.int(0, 2) });
    if (queued.kind === 'Enqueued' && supports('CancelWait')) await send({ kind: 'CancelWait', scope, waiterId });
  }
  const dispatched = await send({ kind: 'DispatchJob', jobId, holder: name, ttlMs: random.int(world.ttlMs.min, world.ttlMs.max) });
  if (dispatched.kind !== 'JobDispatched') return;
  await withLease(ctx, jobId, dispatched.lease);
}

async function withLease(ctx: SideContext, jobId: string, lease: Lease): Promise<void> {
  const { random, name, send, supports } = ctx;
  await pause(random.int(0, 5));
  const dice = random.int(1, 100);
  if (dice <= 25 && supports('PlanIntent')) {
    const intentId = `${name}-i${++ctx.serial.next}`;
    const planned = await send({ kind: 'PlanIntent', intentId, scope: lease.scope, token: lease.token, operation: 'deploy', retrySafety: 'Idempotent' });
    if (planned.kind === 'Planned' && supports('TransitionIntent')) await send({ kind: 'TransitionIntent', intentId, to: random.pick(['Started', 'Failed'] as const) });
  } else if (dice <= 40 && supports('Handoff')) {
    await send({ kind: 'Handoff', scope: lease.scope, holder: name, token: lease.token, newHolder: `${name}-next`, ttlMs: lease.expiresAt - lease.acquiredAt });
  } else if (dice <= 50 && supports('ForceRelease')) {
    await send({ kind: 'ForceRelease', scope: lease.scope, expectedToken: lease.token, expectedExpiresAt: lease.expiresAt, actor: name, reason: 'stress', privileged: random.chance(50) });
  }
  if (supports('FinishJob') && random.chance(70)) await send({ kind: random.chance(70) ? 'FinishJob' : 'ReturnJob', jobId, token: lease.token });
  if (supports('ListJobs') && random.chance(10)) await send({ kind: 'ListJobs' });
}

/** An operator's round: a role epoch raised, a side scope reconciled, a side semaphore redefined, a look at the store. */
export async function sideOperator(ctx: SideContext): Promise<void> {
  const { random, world, send, supports } = ctx;
  if (supports('AdvanceRoleEpoch')) await send({ kind: 'AdvanceRoleEpoch', role: world.sideRole, epoch: ++ctx.serial.next });
  if (supports('ReconcileScope') && random.chance(50)) await send({ kind: 'ReconcileScope', scope: random.pick(world.sideScopes), actor: ctx.name });
  if (supports('DefineCapacity') && random.chance(30)) await send({ kind: 'DefineCapacity', scope: world.sideSemaphore, capacity: random.int(1, 3) });
  if (supports('Inspect') && random.chance(20)) await send({ kind: 'Inspect' });
}

/** A reservation's next step after Reserved: activated, then consumed, released or failed (capacity.ts ends it on each). */
export async function reservationSteps(ctx: SideContext, reservationId: string): Promise<void> {
  const { random, send, supports } = ctx;
  if (supports('ActivateReservation') && random.chance(50)) {
    const activated = await send({ kind: 'ActivateReservation', reservationId });
    if (activated.kind !== 'ReservationUpdated') return;
  }
  const end = random.pick(['ConsumeReservation', 'ReleaseReservation', 'FailReservation'] as const);
  if (supports(end)) await send({ kind: end, reservationId });
}

/**
 * One call of every kind the store implements, in sequence, before the first client's random
 * workflows start: what the run sends does not depend on how many operations the machine gets
 * through. Leases, permits and reservations are taken and ended by this one client alone, on
 * scopes of the tour's own and the judged semaphores, so every check still holds for them.
 */
export async function sideTour(ctx: SideContext): Promise<void> {
  const { name, world, send, supports } = ctx;
  const [scope, second] = world.tourScopes;
  const has = (...kinds: Command['kind'][]) => kinds.every(supports);
  if (has('Acquire')) {
    const got = await send({ kind: 'Acquire', scope: scope!, holder: name, ttlMs: world.ttlMs.max });
    if (got.kind === 'Acquired') {
      const token = got.lease.token;
      if (has('Renew')) await send({ kind: 'Renew', scope: scope!, holder: name, expectedToken: token, ttlMs: world.ttlMs.max });
      if (has('Mutate')) await send({ kind: 'Mutate', scope: scope!, aggregate: world.aggregate, holder: name, token, expectedVersion: 0 });
      if (has('Release')) await send({ kind: 'Release', scope: scope!, holder: name, token });
    }
  }
  if (has('AcquireAll', 'Release')) {
    const all = await send({ kind: 'AcquireAll', scopes: [scope!, second!], holder: name, ttlMs: world.ttlMs.max });
    if (all.kind === 'AcquiredAll') for (const lease of all.leases) await send({ kind: 'Release', scope: lease.scope, holder: name, token: lease.token });
  }
  await tourCapacity(ctx);
  if (has('IdempotencyBegin', 'IdempotencyComplete')) {
    const ref = { tenant: world.tenant, operation: world.operation, subject: world.subject, key: `${name}-tour`, digest: 'digest-a' };
    const begun = await send({ kind: 'IdempotencyBegin', ...ref, retentionMs: world.retentionMs, retryAfterTerminal: false });
    if (begun.kind === 'New') await send({ kind: 'IdempotencyComplete', ...ref, outcome: { kind: 'Succeeded', response: 'tour' } });
  }
  await tourJob(ctx);
  if (has('AdvanceRoleEpoch')) await send({ kind: 'AdvanceRoleEpoch', role: world.sideRole, epoch: ++ctx.serial.next });
  if (has('ReconcileScope')) await send({ kind: 'ReconcileScope', scope: world.sideScopes[0]!, actor: name });
  if (has('DefineCapacity')) await send({ kind: 'DefineCapacity', scope: world.sideSemaphore, capacity: 2 });
  if (has('Inspect')) await send({ kind: 'Inspect' });
}

/** A permit taken and released; three reservations ended each in one of the three ways. */
async function tourCapacity(ctx: SideContext): Promise<void> {
  const { name, world, send, supports } = ctx;
  const semaphore = world.semaphores[0]!;
  if (supports('AcquirePermit')) {
    const permitId = `${name}-tour-p`;
    const got = await send({ kind: 'AcquirePermit', scope: semaphore, permitId, holder: name, units: 1, ttlMs: world.ttlMs.max });
    if (got.kind === 'Granted' && supports('ReleasePermit')) await send({ kind: 'ReleasePermit', scope: semaphore, permitId });
  }
  if (!supports('Reserve')) return;
  for (const end of ['ConsumeReservation', 'ReleaseReservation', 'FailReservation'] as const) {
    const reservationId = `${name}-tour-${end}`;
    const got = await send({ kind: 'Reserve', scope: semaphore, reservationId, owner: name, units: 1, ttlMs: world.ttlMs.max });
    if (got.kind !== 'Reserved') continue;
    if (end === 'ConsumeReservation' && supports('ActivateReservation')) await send({ kind: 'ActivateReservation', reservationId });
    if (supports(end)) await send({ kind: end, reservationId });
  }
}

/** A job with a waiter that gives up, dispatched, an intent planned and moved, handed off, forced free, finished, returned, listed. */
async function tourJob(ctx: SideContext): Promise<void> {
  const { name, world, send, supports } = ctx;
  if (!SIDE_NEEDS.every(supports)) return;
  const scope = world.sideScopes[0]!;
  const jobId = `${name}-tour-job`;
  if ((await send({ kind: 'SubmitJob', jobId, scope })).kind !== 'JobSubmitted') return;
  if (supports('Enqueue')) {
    const queued = await send({ kind: 'Enqueue', scope, waiterId: `${name}-tour-w`, holder: name, priority: 0 });
    if (queued.kind === 'Enqueued' && supports('CancelWait')) await send({ kind: 'CancelWait', scope, waiterId: `${name}-tour-w` });
  }
  const dispatched = await send({ kind: 'DispatchJob', jobId, holder: name, ttlMs: world.ttlMs.max });
  if (dispatched.kind !== 'JobDispatched') return;
  const lease = dispatched.lease;
  if (supports('PlanIntent')) {
    const planned = await send({ kind: 'PlanIntent', intentId: `${name}-tour-i`, scope, token: lease.token, operation: 'deploy', retrySafety: 'Idempotent' });
    if (planned.kind === 'Planned' && supports('TransitionIntent')) await send({ kind: 'TransitionIntent', intentId: `${name}-tour-i`, to: 'Started' });
  }
  if (supports('FinishJob')) await send({ kind: 'FinishJob', jobId, token: lease.token });
  if (supports('ReturnJob')) await send({ kind: 'ReturnJob', jobId, token: lease.token });
  let current = lease;
  if (supports('Handoff')) {
    const handed = await send({ kind: 'Handoff', scope, holder: name, token: lease.token, newHolder: `${name}-next`, ttlMs: world.ttlMs.max });
    if (handed.kind === 'HandedOff') current = handed.lease;
  }
  if (supports('ForceRelease')) await send({ kind: 'ForceRelease', scope, expectedToken: current.token, expectedExpiresAt: current.expiresAt, actor: name, reason: 'tour', privileged: true });
  if (supports('ListJobs')) await send({ kind: 'ListJobs' });
}
