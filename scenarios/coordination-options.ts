// The coordination knobs of a run (seed 001 §66–§71, §184–§186): how many voters, the election
// and heartbeat timing, how long a leader that cannot reach a majority keeps its role, which
// coordinated role fences the workload, and the coordination faults (TigerBeetle style: every knob
// a named integer field, unit last, fault knobs default zero). Validated once, then frozen.

import { strict as assert } from 'node:assert';
import { COORDINATED_ROLES, type CoordinatedRole } from '../model/coordination-epoch.ts';

export interface CoordinationFaultOptions {
  /** Interval between coordination nemesis ticks, in ms (0: no random coordination faults). */
  readonly intervalMs: number;
  /** Chance (percent) per tick that the current leader crashes (§82, §259). */
  readonly leaderCrashPct: number;
  /** Time a crashed leader stays down before its next incarnation starts, in ms. */
  readonly leaderDownMs: number;
  /** Chance (percent) per tick that the current leader pauses, GC-style (§90). */
  readonly leaderPausePct: number;
  /** Longest leader pause, in ms. */
  readonly leaderPauseMsMax: number;
  /** Chance (percent) per tick that the leader is cut off from every other voter but not from the database (§97, §99). */
  readonly leaderIsolatePct: number;
  /** Longest leader isolation, in ms. */
  readonly leaderIsolateMsMax: number;
  /** Chance (percent) per tick of a symmetric partition: every voter alone, no quorum (§98). */
  readonly quorumSplitPct: number;
  /** Longest symmetric partition, in ms. */
  readonly quorumSplitMsMax: number;
}

export interface CoordinationOptions {
  /**
   * Voters of the bootstrap configuration: controllers c1..c<voters> (3 or 5, §66–§70; 1 is the
   * standalone backend of §162, §325–§326). Further controllers start outside and may join (§59–§63).
   */
  readonly voters: number;
  /** The role whose guard fences the workload's lease creation (and, for coordinators, its writes). */
  readonly role: CoordinatedRole;
  /** A follower that heard no leader for a random time in [min, max] starts an election (§185). */
  readonly electionTimeoutMsMin: number;
  readonly electionTimeoutMsMax: number;
  /** Leader heartbeat interval, in ms (§186). */
  readonly heartbeatMs: number;
  /** A leader that reached no majority for this long stops its role (check-quorum; §74, §294). */
  readonly stepDownMs: number;
  /** The scheduler loop's interval between scans of eligible jobs, in ms. */
  readonly schedulerTickMs: number;
  readonly faults: CoordinationFaultOptions;
}

const NO_COORDINATION_FAULTS: CoordinationFaultOptions = Object.freeze({
  intervalMs: 0,
  leaderCrashPct: 0,
  leaderDownMs: 0,
  leaderPausePct: 0,
  leaderPauseMsMax: 0,
  leaderIsolatePct: 0,
  leaderIsolateMsMax: 0,
  quorumSplitPct: 0,
  quorumSplitMsMax: 0,
});

export interface CoordinationInput extends Partial<Omit<CoordinationOptions, 'faults'>> {
  readonly faults?: Partial<CoordinationFaultOptions>;
}

const DEFAULTS: Omit<CoordinationOptions, 'faults'> = {
  voters: 3,
  role: 'scheduler',
  electionTimeoutMsMin: 300,
  electionTimeoutMsMax: 600,
  heartbeatMs: 100,
  stepDownMs: 1_000,
  schedulerTickMs: 100,
};

/** Validates once (turmoil's `build()`): an impossible setting is refused with a clear message. */
export function coordinationOptions(input: CoordinationInput): CoordinationOptions {
  const faults: CoordinationFaultOptions = Object.freeze({ ...NO_COORDINATION_FAULTS, ...(input.faults ?? {}) });
  const merged: CoordinationOptions = Object.freeze({ ...DEFAULTS, ...input, faults });
  for (const [key, value] of [...Object.entries(merged), ...Object.entries(faults)]) {
    if (key === 'role' || key === 'faults') continue;
    if (!Number.isSafeInteger(value) || (value as number) < 0) throw new RangeError(`coordination option ${key} must be a non-negative integer, got ${String(value)}`);
    if (key.endsWith('Pct') && (value as number) > 100) throw new RangeError(`coordination option ${key} must be at most 100, got ${String(value)}`);
  }
  if (merged.voters !== 1 && merged.voters !== 3 && merged.voters !== 5) {
    throw new RangeError(`coordination voters must be 3 or 5 (§66), or 1 for standalone (§325), got ${merged.voters}`);
  }
  if (!COORDINATED_ROLES.includes(merged.role)) throw new RangeError(`coordination role must be one of ${COORDINATED_ROLES.join(', ')}`);
  if (merged.electionTimeoutMsMin < 1 || merged.electionTimeoutMsMax < merged.electionTimeoutMsMin) {
    throw new RangeError('coordination election timeouts need 1 <= electionTimeoutMsMin <= electionTimeoutMsMax');
  }
  if (merged.heartbeatMs < 1 || merged.heartbeatMs >= merged.electionTimeoutMsMin) {
    throw new RangeError('coordination heartbeatMs must be at least 1 and below electionTimeoutMsMin (§185–§186)');
  }
  if (merged.stepDownMs <= merged.heartbeatMs) throw new RangeError('coordination stepDownMs must exceed heartbeatMs');
  if (merged.schedulerTickMs < 1) throw new RangeError('coordination schedulerTickMs must be at least 1');
  assert.ok(Object.isFrozen(merged), 'options are frozen');
  return merged;
}

/** The majority of `voters` (§71). */
export function majorityOf(voters: number): number {
  return Math.floor(voters / 2) + 1;
}
