// capacity (seed 000 §93–§98): the units held on a semaphore never exceed its capacity. A granted
// permit holds its units from its grant (expiry − ttl, store time) to its expiry, a reservation
// from its creation to its expiry, unless a release may have come first (invoked before the later
// admission's reply came back). The capacity is the last one the history defined for the scope.
//
// A sorted sweep per scope: holdings in order of start, each checked against the holdings still
// running at its start; the most units in use at once is always reached at some holding's start.
// Why a sum over capacity is certain: take the set running at that store time, less every holding
// whose release was invoked before the last reply of any admission in the set came back. Whichever
// admission of what is left came last, the store decided it after every other one was admitted
// and before any of them was released, at a store time no later than the set's instant (its own
// start), when none of them had expired: it counted them all and admitted over capacity. This
// holds even for a store that reads its clock before it takes its locks, as one given a clock
// (not the database's) does; so does store time's millisecond resolution, where several
// admissions and releases share one instant.

import { groupBy, mayHaveApplied, okOps, type StressHistory, type StressOp } from '../history.ts';
import { named, violation, type StressViolation } from '../violation.ts';

export const CAPACITY = 'capacity';

export interface Holding {
  readonly scope: string;
  readonly id: string;
  readonly units: number;
  readonly from: number;
  readonly to: number;
  readonly op: StressOp;
  end: StressOp | null;
}

export function holdingsOf(history: StressHistory): Holding[] {
  const holdings: Holding[] = [];
  const permits = new Map<string, Holding>();
  const reservations = new Map<string, Holding>();
  for (const op of okOps(history, 'AcquirePermit', 'Granted')) {
    if (op.outcome?.kind !== 'Granted') continue;
    const permit = op.outcome.permit;
    const holding: Holding = { scope: permit.scope, id: permit.permitId, units: permit.units, from: permit.expiresAt - op.command.ttlMs, to: permit.expiresAt, op, end: null };
    holdings.push(holding);
    permits.set(`${permit.scope}\u0000${permit.permitId}`, holding);
  }
  for (const op of okOps(history, 'Reserve', 'Reserved')) {
    if (op.outcome?.kind !== 'Reserved') continue;
    const r = op.outcome.reservation;
    const holding: Holding = { scope: r.scope, id: r.reservationId, units: r.units, from: r.createdAt, to: r.expiresAt, op, end: null };
    holdings.push(holding);
    reservations.set(r.reservationId, holding);
  }
  const ends = (holding: Holding | undefined, op: StressOp): void => {
    if (holding !== undefined && (holding.end === null || op.invokedAt < holding.end.invokedAt)) holding.end = op;
  };
  for (const op of mayHaveApplied(history, 'ReleasePermit')) {
    if (op.status === 'unknown' || op.outcome?.kind === 'PermitReleased') ends(permits.get(`${op.command.scope}\u0000${op.command.permitId}`), op);
  }
  for (const kind of ['ReleaseReservation', 'ConsumeReservation', 'FailReservation'] as const) {
    for (const op of mayHaveApplied(history, kind)) {
      if (op.status === 'unknown' || op.outcome?.kind === 'ReservationUpdated') ends(reservations.get(op.command.reservationId), op);
    }
  }
  return holdings;
}

/** The capacity of each semaphore: the last one the history defined. */
export function capacitiesOf(history: StressHistory): Map<string, number> {
  const capacities = new Map<string, number>();
  for (const op of okOps(history, 'DefineCapacity', 'Defined')) capacities.set(op.command.scope, op.command.capacity);
  return capacities;
}

export function checkCapacity(holdings: ReadonlyArray<Holding>, capacities: ReadonlyMap<string, number>): StressViolation[] {
  const found: StressViolation[] = [];
  for (const [scope, ofScope] of groupBy(holdings, (h) => h.scope)) {
    const capacity = capacities.get(scope);
    if (capacity === undefined) continue;
    // Store times are whole milliseconds: within one, the order of the calls is the real-time one.
    const ordered = [...ofScope].sort((a, b) => a.from - b.from || a.op.invokedAt - b.op.invokedAt);
    let running: Holding[] = [];
    for (const holding of ordered) {
      running = running.filter((earlier) => earlier.to > holding.from);
      // Every holding running at this store time (this one included), less those whose release
      // may have come before the last of their admissions (so the last admission saw every one left).
      const lastReply = running.reduce((latest, earlier) => Math.max(latest, earlier.op.completedAt), holding.op.completedAt);
      const held = [...running, holding].filter((h) => h.end === null || !(h.end.invokedAt < lastReply));
      const inUse = held.reduce((sum, h) => sum + h.units, 0);
      if (inUse > capacity) {
        found.push(
          violation(
            CAPACITY,
            scope,
            held.map((h) => h.op),
            `scope ${scope}: ${inUse} units held at store time ${holding.from}, capacity ${capacity}: ${held.length} holdings, the last ${named(holding.op)} (${holding.id}, ${holding.units} units)`,
          ),
        );
      }
      running.push(holding);
    }
  }
  return found;
}
