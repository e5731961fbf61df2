// Clock skew (seed 000 §82, §302): a controller's clock gets a constant offset and a drift, at time
// 0 from the profile or at any time from a script. Simulated only: the store never reads a client's
// clock.

import { z } from 'zod';
import { defineFault, faultKnob, ms, node, simulatedOnly } from './package.ts';

/**
 * The most a controller's clock drifts, in parts per million (10%). The protocol relies on it: a
 * holder's local lease window (sim/handler-work.ts) and the operator's stall judgement
 * (sim/force-release-workload.ts) allow for exactly this much.
 */
export const MAX_CLOCK_DRIFT_PPM = 100_000;

const schema = z.object({ f: z.literal('clock-skew'), at: ms, node, offsetMs: z.number().int(), driftPpm: z.number().int().min(-MAX_CLOCK_DRIFT_PPM).max(MAX_CLOCK_DRIFT_PPM) }).strict();

export const clockSkew = defineFault({
  schema,
  knobs: {
    clockSkewMsMax: faultKnob(ms, 'Largest constant clock offset given to a controller, in ms (either sign).'),
    clockDriftPpmMax: faultKnob(z.number().int().min(0).max(MAX_CLOCK_DRIFT_PPM), 'Largest clock drift of a controller, in parts per million (either sign); at most MAX_CLOCK_DRIFT_PPM.'),
  },
  randomWhen: ['clockSkewMsMax', 'clockDriftPpmMax'],
  draw: {
    on: 'start',
    at(tick, mine, stream) {
      if (mine.clockSkewMsMax === 0 && mine.clockDriftPpmMax === 0) return null;
      const offsetMs = stream.int(-mine.clockSkewMsMax, mine.clockSkewMsMax);
      const driftPpm = stream.int(-mine.clockDriftPpmMax, mine.clockDriftPpmMax);
      return { f: 'clock-skew' as const, at: 0, node: `c${tick.controller}`, offsetMs, driftPpm };
    },
  },
  evenWhenHealed: true,
  async apply(world, fault) {
    const node = world.controller(fault.node);
    if (node === undefined) return;
    node.clock.skew(world.now, fault.offsetMs, fault.driftPpm);
    await world.record('clock-skew', { node: node.name, offsetMs: node.clock.offsetMs, driftPpm: node.clock.driftPpm });
  },
  records: {
    'clock-skew': { real: simulatedOnly('client clocks are simulated, and the store reads time from the database or virtual time, never from the client'), colour: '#2e86c1' },
  },
});
