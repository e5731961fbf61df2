// An operator puts the cluster into a maintenance state for a while, then back to Normal (seed 001
// §129–§131, §306): each change goes through the leader and is committed like any coordination
// command, so every daemon sees one state and a monotonic maintenance epoch. A start that finds no
// leader with a majority is retried until the horizon; an end is retried until it is committed.
// Abstract consensus only. Recorded as `maintenance-change` (sim/coordination/maintenance-desk.ts).
// Knobs: `coordination.faults.maintenancePct`, `maintenanceMsMax` (a random state that stops
// something: NoScheduling, NoReleasePromotion, ReadOnly or FullMaintenance).

import { z } from 'zod';
import { toCoordination } from './coordination-fault.ts';
import { coordinationKnob, defineFault, ms, pct, simulatedOnly } from './package.ts';

export const MAINTENANCE_STATES = ['NoScheduling', 'NoReleasePromotion', 'ReadOnly', 'FullMaintenance'] as const;

export const maintenance = defineFault({
  schema: z.object({ f: z.literal('maintenance'), at: ms, state: z.enum(MAINTENANCE_STATES), durationMs: ms }).strict(),
  knobs: {
    maintenancePct: coordinationKnob(
      pct,
      'Chance (percent) per coordination tick that an operator sets a maintenance state that stops something, for up to `maintenanceMsMax` (abstract consensus; 001 §129–§131).',
    ),
    maintenanceMsMax: coordinationKnob(ms, 'Longest maintenance window, in ms.'),
  },
  randomWhen: ['maintenancePct'],
  draw: {
    on: 'coordination',
    at: (tick, mine, stream) =>
      stream.chance(mine.maintenancePct)
        ? { f: 'maintenance' as const, at: tick.at, state: stream.pick(MAINTENANCE_STATES), durationMs: stream.int(1, Math.max(1, mine.maintenanceMsMax)) }
        : null,
  },
  apply: toCoordination,
  records: { 'maintenance-change': { real: simulatedOnly('the maintenance state lives in the simulated coordination layer; the database is unaffected'), colour: '#d35400' } },
});
