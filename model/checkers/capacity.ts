// capacity (seed 000 §93–§96, §207, §212, §293): on a scope with a defined capacity, the units
// of live permits plus Pending/Active reservations never exceed it at any grant, so reservations
// are never overbooked; and an expired reservation is never consumed.
//
// Only certainly overlapping holdings are counted: a permit or reservation counts against a grant
// when it was granted before the grant was invoked, had not expired by the grant's reply, and no
// release or transition that could have ended it was invoked before that reply.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { endOf, indicesOf, pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'capacity';

interface Holding {
  readonly op: Operation;
  readonly what: 'permit' | 'reservation';
  readonly id: string;
  readonly scope: string;
  readonly holder: string;
  readonly units: number;
  readonly expiresAt: number;
}

/** A release or transition that may have ended a holding: anything but a definite refusal. */
function mayHaveEnded(op: Operation, outcomeKind: string | undefined, endingKind: string): boolean {
  if (op.completion?.type === 'fail') return false;
  return outcomeKind === undefined || outcomeKind === endingKind;
}

function capacityAt(defines: ReadonlyArray<{ op: Operation; scope: string; capacity: number }>, scope: string, grant: Operation): number | undefined {
  let latest: { op: Operation; capacity: number } | undefined;
  let overlapping: number | undefined;
  for (const define of defines) {
    if (define.scope !== scope) continue;
    if (endOf(define.op) < grant.invoke.index) {
      if (latest === undefined || endOf(define.op) > endOf(latest.op)) latest = define;
    } else if (define.op.invoke.index < endOf(grant)) {
      overlapping = Math.max(overlapping ?? 0, define.capacity);
    }
  }
  if (latest === undefined) return overlapping;
  return Math.max(latest.capacity, overlapping ?? 0);
}

export function capacity(history: History): Verdict {
  const operations = pairOperations(history);
  const defines = storeOps(operations, 'DefineCapacity').flatMap(({ op, command, outcome }) =>
    outcome?.kind === 'Defined' ? [{ op, scope: command.scope, capacity: outcome.capacity }] : [],
  );
  const holdings: Holding[] = [];
  for (const { op, outcome } of storeOps(operations, 'AcquirePermit')) {
    if (outcome?.kind !== 'Granted') continue;
    const { permit } = outcome;
    holdings.push({ op, what: 'permit', id: `permit ${permit.scope}/${permit.permitId}`, scope: permit.scope, holder: permit.holder, units: permit.units, expiresAt: permit.expiresAt });
  }
  for (const { op, outcome } of storeOps(operations, 'Reserve')) {
    if (outcome?.kind !== 'Reserved') continue;
    const { reservation } = outcome;
    holdings.push({ op, what: 'reservation', id: `reservation ${reservation.reservationId}`, scope: reservation.scope, holder: reservation.owner, units: reservation.units, expiresAt: reservation.expiresAt });
  }
  const enders = new Map<string, Operation[]>();
  const addEnder = (id: string, op: Operation): void => {
    enders.set(id, [...(enders.get(id) ?? []), op]);
  };
  for (const { op, command, outcome } of storeOps(operations, 'ReleasePermit')) {
    if (mayHaveEnded(op, outcome?.kind, 'PermitReleased')) addEnder(`permit ${command.scope}/${command.permitId}`, op);
  }
  for (const kind of ['ConsumeReservation', 'ReleaseReservation', 'FailReservation'] as const) {
    for (const { op, command, outcome } of storeOps(operations, kind)) {
      if (mayHaveEnded(op, outcome?.kind, 'ReservationUpdated')) addEnder(`reservation ${command.reservationId}`, op);
    }
  }

  const violations: Violation[] = [];
  for (const grant of holdings) {
    const cap = capacityAt(defines, grant.scope, grant.op);
    if (cap === undefined) continue;
    const replyTime = grant.op.completion?.time ?? grant.op.invoke.time;
    const live = holdings.filter(
      (h) =>
        h !== grant &&
        h.scope === grant.scope &&
        endOf(h.op) < grant.op.invoke.index &&
        h.expiresAt > replyTime &&
        !(enders.get(h.id) ?? []).some((e) => e.invoke.index < endOf(grant.op) && endOf(e) > h.op.invoke.index),
    );
    const inUse = live.reduce((sum, h) => sum + h.units, 0);
    if (inUse + grant.units <= cap) continue;
    const listed = live.map((h) => `${h.id} ${h.units}u by ${h.holder} (#${endOf(h.op)})`).join(', ');
    violations.push(
      violation(
        INVARIANT,
        `scope ${grant.scope}: ${grant.what === 'permit' ? 'granting' : 'reserving'} ${grant.id} ${grant.units}u to ${grant.holder} (#${endOf(grant.op)}) makes ${inUse + grant.units} units in use over capacity ${cap}; live: ${listed}`,
        [...live.map((h) => endOf(h.op)), ...indicesOf(grant.op)],
        grant.scope,
      ),
    );
  }

  for (const { op, command, outcome } of storeOps(operations, 'ConsumeReservation')) {
    if (outcome?.kind !== 'ReservationUpdated') continue;
    const reserved = holdings.filter((h) => h.what === 'reservation' && h.id === `reservation ${command.reservationId}` && endOf(h.op) < op.invoke.index).at(-1);
    const expiresAt = reserved?.expiresAt ?? outcome.reservation.expiresAt;
    if (op.invoke.time < expiresAt) continue;
    violations.push(
      violation(
        INVARIANT,
        `reservation ${command.reservationId} on scope ${outcome.reservation.scope} consumed at #${endOf(op)} (invoked at time ${op.invoke.time}) although it expired at ${expiresAt}`,
        [...(reserved === undefined ? [] : [endOf(reserved.op)]), ...indicesOf(op)],
        outcome.reservation.scope,
      ),
    );
  }
  return verdictOf(violations);
}
