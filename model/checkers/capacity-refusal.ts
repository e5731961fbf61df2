// capacity-refusal (seed 000 §93–§98: a semaphore's capacity is its units; §207–§212: a
// reservation holds units only while Pending or Active and unexpired, and a released, consumed
// or failed one gives them back; §292, compensation releases them): a request for units is
// refused for lack of capacity (AcquirePermit Busy, Reserve Overbooked) only when the units that
// may be in use plus the units asked for exceed the capacity. A refusal that the units in use
// cannot explain keeps units nobody holds: capacity leaked.
//
// What the history can know, counted in the store's favour: a permit or reservation may be in use
// at the refusal unless its grant was refused, it had certainly expired (its expiry at or before the
// refusal was invoked), or an answer that ended it (PermitReleased; ReservationUpdated by a
// release, consumption or failure), asked after its grant came back, came back before the refusal
// was invoked. A grant whose outcome is unknown may be in use. The capacity may be the one the
// latest DefineCapacity answered before the refusal was invoked or any a define in flight meanwhile
// set, and the smallest is taken. A refusal after a failover or restore is not judged (the image
// may hold units the history saw returned).

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { asFields, endOf, faultsOf, indicesOf, pairOperations, storeOps, type Operation, type StoreOp } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'capacity-refusal';

interface Holding {
  readonly op: Operation;
  /** `permit <scope>/<id>` or `reservation <id>`. */
  readonly id: string;
  readonly scope: string;
  readonly units: number;
  /** The expiry the store answered, or null when the grant's outcome is unknown. */
  readonly expiresAt: number | null;
}

interface Refusal {
  readonly op: Operation;
  readonly scope: string;
  readonly units: number;
  readonly answer: string;
}

/** A request for units that are not a whole number of at least one is never granted (nor refused for capacity). */
function validUnits(units: number): boolean {
  return Number.isInteger(units) && units >= 1;
}

function holdingsAndRefusals(operations: ReadonlyArray<Operation>): { holdings: Holding[]; refusals: Refusal[] } {
  const holdings: Holding[] = [];
  const refusals: Refusal[] = [];
  for (const { op, command, outcome } of storeOps(operations, 'AcquirePermit')) {
    if (op.completion?.type === 'fail' || !validUnits(command.units)) continue;
    const id = `permit ${command.scope}/${command.permitId}`;
    if (outcome === null) holdings.push({ op, id, scope: command.scope, units: command.units, expiresAt: null });
    else if (outcome.kind === 'Granted') holdings.push({ op, id, scope: command.scope, units: command.units, expiresAt: outcome.permit.expiresAt });
    else if (outcome.kind === 'Busy') refusals.push({ op, scope: command.scope, units: command.units, answer: `Busy (in use ${outcome.inUse}, capacity ${outcome.capacity})` });
  }
  for (const { op, command, outcome } of storeOps(operations, 'Reserve')) {
    if (op.completion?.type === 'fail' || !validUnits(command.units)) continue;
    const id = `reservation ${command.reservationId}`;
    if (outcome === null) holdings.push({ op, id, scope: command.scope, units: command.units, expiresAt: null });
    else if (outcome.kind === 'Reserved') holdings.push({ op, id, scope: command.scope, units: command.units, expiresAt: outcome.reservation.expiresAt });
    else if (outcome.kind === 'Overbooked') refusals.push({ op, scope: command.scope, units: command.units, answer: `Overbooked (in use ${outcome.inUse}, capacity ${outcome.capacity})` });
  }
  return { holdings, refusals };
}

/** The answers that certainly ended a holding, by holding id. */
function endings(operations: ReadonlyArray<Operation>): ReadonlyMap<string, ReadonlyArray<Operation>> {
  const ended = new Map<string, Operation[]>();
  const add = (id: string, op: Operation): void => {
    ended.set(id, [...(ended.get(id) ?? []), op]);
  };
  for (const { op, command, outcome } of storeOps(operations, 'ReleasePermit')) if (outcome?.kind === 'PermitReleased') add(`permit ${command.scope}/${command.permitId}`, op);
  for (const kind of ['ConsumeReservation', 'ReleaseReservation', 'FailReservation'] as const) {
    for (const { op, command, outcome } of storeOps(operations, kind)) if (outcome?.kind === 'ReservationUpdated') add(`reservation ${command.reservationId}`, op);
  }
  return ended;
}

/** The smallest capacity the scope may have had when `refusal` took effect, or undefined if none was defined. */
function smallestCapacity(defines: ReadonlyArray<StoreOp<'DefineCapacity'>>, scope: string, refusal: Operation): number | undefined {
  const done: Array<{ readonly op: Operation; readonly capacity: number }> = [];
  const inFlight: Array<{ readonly op: Operation; readonly capacity: number }> = [];
  for (const { op, command, outcome } of defines) {
    if (command.scope !== scope || op.completion?.type === 'fail' || (outcome !== null && outcome.kind !== 'Defined')) continue;
    if (outcome !== null && endOf(op) < refusal.invoke.index) done.push({ op, capacity: command.capacity });
    else if (op.invoke.index < endOf(refusal)) inFlight.push({ op, capacity: command.capacity });
  }
  // Any completed define that no other was invoked after may have taken effect last (two that
  // overlapped took effect in either order).
  const lastOnes = done.filter((d) => !done.some((e) => e.op.invoke.index > endOf(d.op)));
  const possible = [...lastOnes, ...inFlight];
  return possible.length === 0 ? undefined : Math.min(...possible.map((d) => d.capacity));
}

/** The holdings of the refusal's scope that may have been in use when it took effect. */
function mayBeInUse(holdings: ReadonlyArray<Holding>, ended: ReadonlyMap<string, ReadonlyArray<Operation>>, refusal: Refusal): ReadonlyArray<Holding> {
  return holdings.filter((h) => {
    if (h.scope !== refusal.scope || h.op.invoke.index >= endOf(refusal.op)) return false;
    if (h.expiresAt === null) return true;
    if (h.expiresAt <= refusal.op.invoke.time) return false;
    return !(ended.get(h.id) ?? []).some((e) => e.invoke.index > endOf(h.op) && endOf(e) < refusal.op.invoke.index);
  });
}

export function capacityRefusal(history: History): Verdict {
  const operations = pairOperations(history);
  const { holdings, refusals } = holdingsAndRefusals(operations);
  const ended = endings(operations);
  const replaced = faultsOf(history, ['db-restore', 'db-failover']).filter((f) => asFields(f.value)?.skipped !== true).map((f) => f.index);
  const defines = storeOps(operations, 'DefineCapacity');
  const violations: Violation[] = [];
  for (const refusal of refusals) {
    if (replaced.some((index) => index < endOf(refusal.op))) continue;
    const capacity = smallestCapacity(defines, refusal.scope, refusal.op);
    if (capacity === undefined) continue;
    const live = mayBeInUse(holdings, ended, refusal);
    const inUse = live.reduce((sum, h) => sum + h.units, 0);
    if (inUse + refusal.units > capacity) continue;
    const listed = live.length === 0 ? 'none' : live.map((h) => `${h.id} ${h.units}u (#${endOf(h.op)})`).join(', ');
    violations.push(
      violation(
        INVARIANT,
        `scope ${refusal.scope}: a request for ${refusal.units}u (#${endOf(refusal.op)}) was answered ${refusal.answer}, but at most ${inUse}u may have been in use of capacity ${capacity}; may be in use: ${listed}`,
        [...live.map((h) => endOf(h.op)).filter(Number.isFinite), ...indicesOf(refusal.op)],
        refusal.scope,
      ),
    );
  }
  return verdictOf(violations);
}
