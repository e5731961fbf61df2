// The random fault profile (`faults.profile`): every profile knob a fault kind declares (index.ts)
// plus the knobs of the run as a whole, declared here, each with its zod schema and default 0 (no
// fault); the scenario schema, plan files and `FaultOptions` are all derived from this list.
// `coordination.faults` and `federation.faults` are derived the same way (coordination-knobs.ts,
// federation-knobs.ts).

import { z } from 'zod';
import { packageKnobs, type PackageKnob } from './index.ts';
import { faultKnob, ms, pct, type FaultKnob } from './package.ts';

/** Knobs that belong to no one fault kind: the nemesis cadence, the network's delays and held messages. */
const RUN_KNOBS = {
  nemesisIntervalMs: faultKnob(ms, 'Interval between nemesis ticks that may start random faults, in ms (0: no random faults).', 'keep'),
  networkDelayMsMin: faultKnob(ms, 'Smallest one-way network delay, in ms.', 'keep'),
  networkDelayMsMax: faultKnob(ms, 'Largest one-way network delay, in ms.', 'keep'),
  holdProbabilityPct: faultKnob(pct, 'Chance (percent) that a message is held back for an extra `holdMsMax` at most.'),
  holdMsMax: faultKnob(ms, 'Longest extra hold of a held message, in ms.'),
};

export type FaultKnobName = PackageKnob | keyof typeof RUN_KNOBS;
/** Every fault knob of a run, in one options object: integers, unit last, zero for no fault. */
export type FaultOptions = Readonly<Record<FaultKnobName, number>>;

export const FAULT_KNOBS: Readonly<Record<FaultKnobName, FaultKnob>> = Object.freeze({ ...packageKnobs('profile'), ...RUN_KNOBS });

/** The profile as a scenario writes it: any subset of the knobs, nothing else. */
export const faultProfileSchema = z.object(Object.fromEntries(Object.entries(FAULT_KNOBS).map(([name, k]) => [name, k.schema])) as Record<FaultKnobName, z.ZodNumber>).partial().strict();

export const NO_FAULTS: FaultOptions = Object.freeze(Object.fromEntries(Object.keys(FAULT_KNOBS).map((name) => [name, 0])) as Record<FaultKnobName, number>);

export function faultOptions(partial: Partial<FaultOptions> | undefined): FaultOptions {
  const merged: Record<string, number> = { ...NO_FAULTS, ...(partial ?? {}) };
  for (const [key, value] of Object.entries(merged)) {
    if (!Number.isInteger(value) || value < 0) {
      throw new RangeError(`fault option ${key} must be a non-negative integer, got ${String(value)}`);
    }
    if (key.endsWith('Pct') && value > 100) throw new RangeError(`fault option ${key} must be at most 100, got ${value}`);
  }
  if (merged['networkDelayMsMax']! < merged['networkDelayMsMin']!) {
    throw new RangeError('networkDelayMsMax must be at least networkDelayMsMin');
  }
  return Object.freeze(merged as Record<FaultKnobName, number>);
}

/**
 * Swarm testing: the seed also picks the fault mix. Each knob of `ceiling` is kept, zeroed or
 * scaled down, so some seeds run with few fault kinds at high intensity and others with many.
 * Knobs marked 'keep' (the nemesis cadence, the network's delays, the down times of a crashed
 * controller or database) are kept as they are; the others, durations of faults included, are scaled.
 */
export function swarmFaults(ceiling: FaultOptions, stream: { int(min: number, max: number): number }): FaultOptions {
  const out: Record<string, number> = {};
  for (const key of Object.keys(ceiling).sort()) {
    const value = ceiling[key as FaultKnobName];
    if (FAULT_KNOBS[key as FaultKnobName]?.swarm === 'keep') {
      out[key] = value;
      continue;
    }
    const roll = stream.int(0, 3);
    out[key] = roll === 0 ? 0 : Math.floor((value * roll) / 3);
  }
  return faultOptions(out as FaultOptions);
}
