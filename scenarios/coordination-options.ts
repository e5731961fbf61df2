// The coordination knobs of a run (seed 001 §66–§71, §184–§186): how many voters, the election
// and heartbeat timing, how long a leader that cannot reach a majority keeps its role, which
// coordinated role fences the workload, and the coordination faults (TigerBeetle style: every knob
// a named integer field, unit last, fault knobs default zero). Declared once, as the zod schema
// below, with the fault knobs declared by the fault kinds that use them
// (faults/coordination-knobs.ts): the scenario format, plan files and the option types are
// derived from it. Validated once, then frozen.

import { strict as assert } from 'node:assert';
import { z } from 'zod';
import { COORDINATED_ROLES } from '../model/coordination-epoch.ts';
import { coordinationFaultsSchema, type CoordinationFaultOptions } from '../faults/coordination-knobs.ts';

const ms = z.number().int().nonnegative();

/** The coordination block of a scenario or a plan; every field has its default. */
export const coordinationSchema = z
  .object({
    /**
     * Voters of the bootstrap configuration: controllers c1..c<voters> (3 or 5, §66–§70; 1 is the
     * standalone backend of §162, §325–§326). Further controllers start outside and may join (§59–§63).
     */
    voters: z.union([z.literal(1), z.literal(3), z.literal(5)]).default(3),
    /**
     * How the voters agree: 'abstract', a majority service whose message exchanges are single
     * instants (sim/coordination/cluster.ts); 'raft', Raft over one-way simulated messages, with a
     * log that replicates the coordination state machine (sim/raft/). Membership changes need 'abstract'.
     */
    consensus: z.enum(['abstract', 'raft']).default('abstract'),
    /** The role whose guard fences the workload's lease creation (and, for coordinators, its writes). */
    role: z.enum(COORDINATED_ROLES).default('scheduler'),
    /** A follower that heard no leader for a random time in [min, max] starts an election (§185). */
    electionTimeoutMsMin: ms.default(300),
    electionTimeoutMsMax: ms.default(600),
    /** Leader heartbeat interval, in ms (§186). */
    heartbeatMs: ms.default(100),
    /** A leader that reached no majority for this long stops its role (check-quorum; §74, §294). */
    stepDownMs: ms.default(1_000),
    /** The scheduler loop's interval between scans of eligible jobs, in ms. */
    schedulerTickMs: ms.default(100),
    /**
     * A Raft node compacts its log once it has applied this many entries beyond its snapshot: the
     * snapshot replaces them, and a follower that lacks them is sent the snapshot (`consensus:
     * 'raft'`; 0: never; 001 §338). A restart loads the snapshot; later entries apply again as the commit index reaches them.
     */
    snapshotEntries: z.number().int().min(0).max(1_000).default(0),
    /**
     * Jobs have artifacts in a content-addressed store beside the coordination layer, which each
     * attempt fetches before its effect (001 §4, §100, §278; sim/coordination/artifact-store.ts).
     */
    artifacts: z.boolean().default(false),
    /**
     * Regions the daemons run in (001 §187–§189): the bootstrap voters in region 1, the other
     * controllers spread over the rest; the `wan-partition` fault cuts the links between regions.
     */
    regions: z.number().int().min(1).max(4).default(1),
    /** Agents that stream the job events from a daemon of their choice and fail over to another (001 §112–§118; 0: none). */
    agents: z.number().int().min(0).max(8).default(0),
    /** How often an agent polls its stream, in ms. */
    agentPollMs: z.number().int().min(1).default(100),
    /** How long an agent that lost its daemon waits before it connects to a daemon that is up, in ms. */
    agentReconnectMs: ms.default(200),
    faults: coordinationFaultsSchema.prefault({}),
  })
  .strict();

export type CoordinationOptions = Readonly<Omit<z.output<typeof coordinationSchema>, 'faults'>> & { readonly faults: CoordinationFaultOptions };
/** What a scenario writes: any subset of the knobs. */
export type CoordinationInput = z.input<typeof coordinationSchema>;

/** Validates once (turmoil's `build()`): an impossible setting is refused with a clear message. */
export function coordinationOptions(input: CoordinationInput): CoordinationOptions {
  if (input.voters !== undefined && input.voters !== 1 && input.voters !== 3 && input.voters !== 5) {
    throw new RangeError(`coordination voters must be 3 or 5 (§66), or 1 for standalone (§325), got ${String(input.voters)}`);
  }
  const parsed = coordinationSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RangeError(`${issue.path.length === 0 ? 'coordination' : `coordination option ${issue.path.join('.')}`}: ${issue.message}`);
  }
  const merged: CoordinationOptions = Object.freeze({ ...parsed.data, faults: Object.freeze(parsed.data.faults) });
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
