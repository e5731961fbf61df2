// The coordination knobs of a run (seed 001 §66–§71, §184–§186): how many voters, the election
// and heartbeat timing, how long a leader that cannot reach a majority keeps its role, which
// coordinated role fences the workload, and the coordination faults (TigerBeetle style: every knob
// a named integer field, unit last, fault knobs default zero). Declared once, as the zod schema
// below: the scenario format, plan files and the option types are derived from it. Validated
// once, then frozen.

import { strict as assert } from 'node:assert';
import { z } from 'zod';
import { COORDINATED_ROLES } from '../model/coordination-epoch.ts';

const ms = z.number().int().nonnegative();
const pct = z.number().int().min(0).max(100);

export const coordinationFaultsSchema = z
  .object({
    /** Interval between coordination nemesis ticks, in ms (0: no random coordination faults). */
    intervalMs: ms.default(0),
    /** Chance (percent) per tick that the current leader crashes (§82, §259). */
    leaderCrashPct: pct.default(0),
    /** Time a crashed leader stays down before its next incarnation starts, in ms. */
    leaderDownMs: ms.default(0),
    /** Chance (percent) per tick that the current leader pauses, GC-style (§90). */
    leaderPausePct: pct.default(0),
    /** Longest leader pause, in ms. */
    leaderPauseMsMax: ms.default(0),
    /** Chance (percent) per tick that the leader is cut off from every other voter but not from the database (§97, §99). */
    leaderIsolatePct: pct.default(0),
    /** Longest leader isolation, in ms. */
    leaderIsolateMsMax: ms.default(0),
    /** Chance (percent) per tick of a symmetric partition: every voter alone, no quorum (§98). */
    quorumSplitPct: pct.default(0),
    /** Longest symmetric partition, in ms. */
    quorumSplitMsMax: ms.default(0),
    /**
     * Chance (percent) that a newly elected leader crashes within two heartbeats of winning, before
     * or just after its first entry is replicated (`consensus: 'raft'`; the downtime is `leaderDownMs`).
     */
    newLeaderCrashPct: pct.default(0),
    /**
     * Chance (percent) that a leader, as it appends its first entry, is cut off from every voter
     * but one for up to `newLeaderIsolateMsMax` (`consensus: 'raft'`): its entry reaches a minority.
     */
    newLeaderIsolatePct: pct.default(0),
    newLeaderIsolateMsMax: ms.default(0),
    /** Chance (percent) per coordination tick that an operator drains the leader (`consensus: 'raft'`; §270). */
    leaderTransferPct: pct.default(0),
    /** Chance (percent) per coordination tick that a controller loses its durable consensus state (`consensus: 'raft'`; §167–§169). */
    voterStateLossPct: pct.default(0),
    /** Time a voter that lost its state stays down before it comes back, in ms. */
    voterStateLossDownMs: ms.default(0),
    /** Chance (percent) that a consensus message between voters is lost (`consensus: 'raft'`; the database links keep the profile's). */
    messageLossPct: pct.default(0),
    /** Chance (percent) that a consensus message between voters is delivered twice (`consensus: 'raft'`). */
    messageDuplicatePct: pct.default(0),
    /**
     * Chance (percent) per coordination tick that a process claiming a voter's name asks for votes
     * with a credential that must not authenticate it (abstract consensus; §56–§59, §214–§217).
     */
    impostorPct: pct.default(0),
    /**
     * Chance (percent) per coordination tick that the platform's own leader election names a
     * daemon that does not lead, for up to `orchestratorLeaseMsMax` (abstract consensus; §202–§204).
     */
    orchestratorLeasePct: pct.default(0),
    orchestratorLeaseMsMax: ms.default(0),
    /**
     * Chance (percent) per coordination tick that an operator sets a maintenance state that stops
     * something, for up to `maintenanceMsMax` (abstract consensus; §129–§131).
     */
    maintenancePct: pct.default(0),
    maintenanceMsMax: ms.default(0),
    /** Chance (percent) per coordination tick that a public client asks the API to propose a raw ElectLeader (abstract consensus; §220–§223). */
    rawProposalPct: pct.default(0),
    /** Chance (percent) per coordination tick that the artifact store stops answering, for up to `casOutageMsMax` (with `artifacts`; §100, §278). */
    casOutagePct: pct.default(0),
    casOutageMsMax: ms.default(0),
    /** Chance (percent) per coordination tick that the links between regions are cut, for up to `wanPartitionMsMax` (with `regions` above 1; §187–§189). */
    wanPartitionPct: pct.default(0),
    wanPartitionMsMax: ms.default(0),
  })
  .strict();

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

export type CoordinationFaultOptions = Readonly<z.output<typeof coordinationFaultsSchema>>;
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
