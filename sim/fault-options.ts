// Every fault knob of a run, in one options object (TigerBeetle style): each field is named with
// its unit last, defaults to zero (no fault), and is an integer so draws stay deterministic.

import type { Stream } from './prng.ts';

export interface FaultOptions {
  /** Chance (percent) that a random partition starts at each nemesis tick. */
  readonly partitionProbabilityPct: number;
  /** Chance (percent) that a random partition is one-way rather than both ways. */
  readonly oneWayPartitionPct: number;
  /** Longest random partition, in ms. */
  readonly partitionMsMax: number;
  /** Largest constant clock offset given to a controller, in ms (either sign). */
  readonly clockSkewMsMax: number;
  /** Largest clock drift of a controller, in parts per million (either sign). */
  readonly clockDriftPpmMax: number;
  /** Chance (percent) that a controller pauses (GC-style) at each nemesis tick. */
  readonly pauseProbabilityPct: number;
  /** Longest random controller pause, in ms. */
  readonly pauseMsMax: number;
  /** Chance (percent) that a controller crashes at each nemesis tick. */
  readonly crashProbabilityPct: number;
  /** Time a crashed controller stays down before its next incarnation starts, in ms. */
  readonly restartDelayMs: number;
  /** Chance (percent) that any one message is lost. */
  readonly messageLossPct: number;
  /** Smallest one-way network delay, in ms. */
  readonly networkDelayMsMin: number;
  /** Largest one-way network delay, in ms. */
  readonly networkDelayMsMax: number;
  /** Chance (percent) that a message is held back for an extra `holdMsMax` at most. */
  readonly holdProbabilityPct: number;
  /** Longest extra hold of a held message, in ms. */
  readonly holdMsMax: number;
  /** Chance (percent) that the database crashes at each nemesis tick. */
  readonly dbCrashProbabilityPct: number;
  /** Time the crashed database stays down, in ms. */
  readonly dbDownMs: number;
  /** Chance (percent) of a failover to a lagging replica at each nemesis tick. */
  readonly dbFailoverProbabilityPct: number;
  /** Replication lag of the promoted replica: commits of the last `dbFailoverLagMs` are lost. */
  readonly dbFailoverLagMs: number;
  /** Chance (percent) that a provider call times out (reply lost) at the provider. */
  readonly providerTimeoutPct: number;
  /** Of the provider timeouts, the chance (percent) that the effect was nevertheless applied. */
  readonly providerTimeoutAppliedPct: number;
  /** Interval between nemesis ticks that may start random faults, in ms (0: no random faults). */
  readonly nemesisIntervalMs: number;
}

export const NO_FAULTS: FaultOptions = Object.freeze({
  partitionProbabilityPct: 0,
  oneWayPartitionPct: 0,
  partitionMsMax: 0,
  clockSkewMsMax: 0,
  clockDriftPpmMax: 0,
  pauseProbabilityPct: 0,
  pauseMsMax: 0,
  crashProbabilityPct: 0,
  restartDelayMs: 0,
  messageLossPct: 0,
  networkDelayMsMin: 0,
  networkDelayMsMax: 0,
  holdProbabilityPct: 0,
  holdMsMax: 0,
  dbCrashProbabilityPct: 0,
  dbDownMs: 0,
  dbFailoverProbabilityPct: 0,
  dbFailoverLagMs: 0,
  providerTimeoutPct: 0,
  providerTimeoutAppliedPct: 0,
  nemesisIntervalMs: 0,
});

export function faultOptions(partial: Partial<FaultOptions> | undefined): FaultOptions {
  const merged = { ...NO_FAULTS, ...(partial ?? {}) };
  for (const [key, value] of Object.entries(merged)) {
    if (!Number.isInteger(value) || value < 0) {
      throw new RangeError(`fault option ${key} must be a non-negative integer, got ${String(value)}`);
    }
    if (key.endsWith('Pct') && value > 100) throw new RangeError(`fault option ${key} must be at most 100, got ${value}`);
  }
  if (merged.networkDelayMsMax < merged.networkDelayMsMin) {
    throw new RangeError('networkDelayMsMax must be at least networkDelayMsMin');
  }
  return Object.freeze(merged);
}

/**
 * Swarm testing: the seed also picks the fault mix. Each knob of `ceiling` is kept, zeroed or
 * scaled down, so some seeds run with few fault kinds at high intensity and others with many.
 */
export function swarmFaults(ceiling: FaultOptions, stream: Stream): FaultOptions {
  const out: Record<string, number> = {};
  for (const key of Object.keys(ceiling).sort()) {
    const value = (ceiling as unknown as Record<string, number>)[key]!;
    if (key === 'nemesisIntervalMs' || key.startsWith('networkDelay') || key === 'restartDelayMs' || key === 'dbDownMs') {
      out[key] = value;
      continue;
    }
    const roll = stream.int(0, 3);
    out[key] = roll === 0 ? 0 : Math.floor((value * roll) / 3);
  }
  return faultOptions(out as unknown as FaultOptions);
}
