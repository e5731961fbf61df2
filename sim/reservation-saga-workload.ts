// A booking and the device work it pays for (seed 000 §37–§42, §107, §207–§213, §292), as two
// parties: a front that books units of a pool (Reserve) and hands the request on to an executor
// whatever the booking answered, and the executor, which never trusts the hand-on and asks the
// store. A booking refused as overbooked leaves an id the store never saw: the executor's
// transitions on it answer NotFound, and its compensation (idempotent: it compensates every step
// it attempted, whether or not it took) does too. An executor paused past the reservation's TTL
// finds it expired, and an expired reservation is never activated or consumed. Every command
// goes over a transport that delivers it twice (sim/redelivery.ts), so each transition is also
// answered once more for a reservation already in its new state (InvalidState).

import type { Fiber, Journal, Sim } from './engine.ts';
import type { OpSpec } from './plan.ts';
import { redelivered } from './redelivery.ts';

/** What the executor does with the booking: activate, work, then consume or fail it; consume it at once; or cancel it. */
export type SagaPath = NonNullable<OpSpec['saga']>;

export async function reservationSagaJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  const reservationId = `${op.id}/r`;
  await redelivered(sim, fiber, { kind: 'Reserve', scope: op.scopes![0]!, reservationId, owner: fiber.node.proc, units: op.units ?? 1, ttlMs: op.ttlMs });
  // The hand-on to the executor takes a moment; a pause here may outlast the reservation.
  await sim.sleepLocal(fiber, Math.floor(op.workMs / 4));
  await execute(sim, fiber, op, reservationId);
}

async function execute(sim: Sim, fiber: Fiber, op: OpSpec, reservationId: string): Promise<void> {
  const transition = (kind: 'ActivateReservation' | 'ConsumeReservation' | 'ReleaseReservation' | 'FailReservation') => redelivered(sim, fiber, { kind, reservationId });
  const path = op.saga ?? 'consume';
  if (path === 'cancel') {
    // The requester cancels before the work starts: the booking is released.
    await transition('ReleaseReservation');
    return;
  }
  if (path === 'direct') {
    // Short work needs no activation: the booking is consumed once the work is done.
    await sim.sleepLocal(fiber, Math.floor(op.workMs / 2));
    const consumed = await transition('ConsumeReservation');
    if (consumed.first?.kind === 'ReservationExpired') await transition('ReleaseReservation');
    return;
  }
  const activated = await transition('ActivateReservation');
  const state = activated.first?.kind ?? activated.again?.kind;
  if (state === 'NotFound') {
    // Never booked: the executor records its failure, which the store has no booking for either.
    await transition('FailReservation');
    return;
  }
  if (state !== 'ReservationUpdated') {
    // Expired (or no answer): the booking is given back; an expired one stays expired.
    await transition('ReleaseReservation');
    return;
  }
  await sim.sleepLocal(fiber, op.workMs);
  const done = await transition(path === 'fail' ? 'FailReservation' : 'ConsumeReservation');
  if (done.first?.kind === 'ReservationExpired') await transition('ReleaseReservation');
}
