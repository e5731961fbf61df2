// The built-in scenarios of seed 001: coordination epochs, role guards and failover (plain data,
// validated by schema.ts on load, listed after those of seed 000 by catalog.ts).

import type { InvariantName } from '../model/checkers/index.ts';
import type { CoordinationInput } from './coordination-options.ts';
import { NET } from './profiles.ts';
import type { ScenarioInput } from './schema.ts';

/** Seed 001: safety of leases plus the coordination invariants (§283–§284). */
export const COORD = ['one-owner-per-epoch', 'lease-exclusive', 'fencing-monotonic', 'no-phantom-lease', 'no-lost-update', 'one-leader-per-term', 'fenced-stale-leader', 'jobs-complete', 'attempts-continue'] as const;
/** Faults heal at the horizon; this long after, every job that could be dispatched has finished. */
const COORD_LIVENESS_MS = 5_000;
/** Jobs dispatched by a leader: several scopes, short work, leases shorter than a failover. */
const COORD_WORKLOAD = { scopes: 4, mix: { 'env-deploy': 1 }, horizonMs: 10_000, leaseTtlMs: 1_500, workMsMin: 50, workMsMax: 300 } as const;

/** Now and then the leader is cut off from the other voters for up to 2 s, or paused for up to 0.9 s. */
const LEADER_ISOLATED_OR_PAUSED = { intervalMs: 1_000, leaderIsolatePct: 15, leaderIsolateMsMax: 2_000, leaderPausePct: 15, leaderPauseMsMax: 900 } as const;

/** Each coordination tick, the leader may crash (down for 0.5 s) or pause (up to 0.9 s): the chaos the scenarios of outside actors run under. */
const LEADER_CHAOS = { intervalMs: 1_000, leaderCrashPct: 10, leaderDownMs: 500, leaderPausePct: 10, leaderPauseMsMax: 900 } as const;

type Faults = NonNullable<ScenarioInput['faults']>;

/**
 * What makes a coordination scenario its own. Shared: COORD_WORKLOAD on one controller a voter,
 * the NET profile, the COORD invariants, 40 operations expected to pass, and a liveness tail of
 * COORD_LIVENESS_MS.
 */
interface CoordinatedScenario extends Pick<ScenarioInput, 'name' | 'title' | 'sources'> {
  readonly voters: NonNullable<CoordinationInput['voters']>;
  /** What differs from COORD_WORKLOAD (controllers: one a voter unless given). */
  readonly workload?: Partial<ScenarioInput['workload']>;
  /** Random faults besides the NET delays. */
  readonly profile?: Faults['profile'];
  readonly scripted?: Faults['scripted'];
  /** Judged besides COORD. */
  readonly invariants?: ReadonlyArray<InvariantName>;
  readonly livenessMs?: number;
  readonly coordination?: Omit<CoordinationInput, 'voters'>;
}

export function coordinated<const N extends string>(s: CoordinatedScenario & { readonly name: N }): ScenarioInput & { readonly name: N } {
  return {
    name: s.name,
    title: s.title,
    sources: s.sources,
    workload: { ...COORD_WORKLOAD, controllers: s.voters, ...s.workload },
    faults: { profile: { ...NET, ...s.profile }, ...(s.scripted === undefined ? {} : { scripted: s.scripted }) },
    invariants: [...COORD, ...(s.invariants ?? [])],
    expect: 'pass',
    operations: 40,
    liveness: { boundMs: s.livenessMs ?? COORD_LIVENESS_MS },
    coordination: { voters: s.voters, ...s.coordination },
  };
}

export const COORDINATION_SCENARIOS = [
  // The controllers are the voters; the scheduler leader (or release/deployment coordinator)
  // dispatches every operation under its role guard.
  coordinated({
    name: 'three-node-failover',
    title: 'Leader crash on three voters: a new leader, a new epoch, no duplicate leases',
    sources: ['001 §259', '001 §82–88', '001 §67'],
    voters: 3,
    scripted: [{ f: 'leader-crash', at: 3_000, downMs: 500 }, { f: 'leader-crash', at: 6_500, downMs: 500 }],
    coordination: { faults: { intervalMs: 1_000, leaderCrashPct: 10, leaderDownMs: 400 } },
  }),
  coordinated({
    name: 'minority-partition',
    title: 'A 1/2 partition isolates the leader: only the majority elects, the isolated one cannot commit',
    sources: ['001 §260', '001 §97', '001 §99'],
    voters: 3,
    scripted: [{ f: 'leader-isolate', at: 2_500, durationMs: 2_500 }, { f: 'leader-isolate', at: 7_000, durationMs: 1_500 }],
    invariants: ['quorum-loss-degraded'],
    coordination: { faults: { intervalMs: 1_000, leaderIsolatePct: 20, leaderIsolateMsMax: 2_000 } },
  }),
  coordinated({
    name: 'quorum-loss',
    title: 'Symmetric partition: no quorum, no coordination writes, scheduling stops, attempts continue',
    sources: ['001 §261', '001 §71–77', '001 §98'],
    voters: 3,
    scripted: [{ f: 'quorum-split', at: 3_000, durationMs: 3_000 }],
    invariants: ['quorum-loss-degraded'],
    coordination: { faults: { intervalMs: 1_000, quorumSplitPct: 10, quorumSplitMsMax: 2_000 } },
  }),
  coordinated({
    name: 'stale-leader-epoch',
    title: "A deposed leader that keeps running (isolated or paused) has its lease creation fenced by epoch",
    sources: ['001 §262', '001 §29', '001 §90', '001 §95–96'],
    voters: 3,
    scripted: [{ f: 'leader-isolate', at: 2_000, durationMs: 2_000 }, { f: 'leader-pause', at: 6_000, durationMs: 800 }],
    coordination: { faults: LEADER_ISOLATED_OR_PAUSED },
  }),
  coordinated({
    name: 'scheduler-epoch',
    title: 'Five voters under leader crashes, pauses and isolation: no lease is created under an old scheduler epoch',
    sources: ['001 §263', '001 §26–28', '001 §93', '001 §69'],
    voters: 5,
    coordination: { faults: { intervalMs: 700, leaderCrashPct: 10, leaderDownMs: 300, leaderIsolatePct: 20, leaderIsolateMsMax: 2_000, leaderPausePct: 20, leaderPauseMsMax: 900 } },
  }),
  coordinated({
    name: 'release-coordinator-epoch',
    title: 'An old release coordinator cannot promote a channel after a new epoch',
    sources: ['001 §264', '001 §34', '001 §78', '001 §94'],
    voters: 3,
    workload: { mix: { 'alias-publish': 1 } },
    scripted: [{ f: 'leader-isolate', at: 3_000, durationMs: 2_000 }],
    invariants: ['no-split-promotion'],
    coordination: { role: 'release-coordinator', faults: LEADER_ISOLATED_OR_PAUSED },
  }),
  coordinated({
    name: 'deployment-coordinator-epoch',
    title: 'An old deployment coordinator cannot apply after a new epoch',
    sources: ['001 §265', '001 §35', '001 §79', '001 §94'],
    voters: 3,
    workload: { mix: { 'env-deploy': 2, 'infra-apply': 1 } },
    scripted: [{ f: 'leader-pause', at: 3_000, durationMs: 800 }],
    invariants: ['no-split-promotion'],
    coordination: { role: 'deployment-coordinator', faults: LEADER_ISOLATED_OR_PAUSED },
  }),
  coordinated({
    name: 'restart-incarnation',
    title: 'A restarted node is a new incarnation and inherits no role or guard',
    sources: ['001 §266', '001 §12–13'],
    voters: 3,
    profile: { nemesisIntervalMs: 700, crashProbabilityPct: 15, restartDelayMs: 100 },
    scripted: [{ f: 'leader-crash', at: 4_000, downMs: 100 }],
    coordination: { faults: { intervalMs: 1_000, leaderCrashPct: 15, leaderDownMs: 100 } },
  }),
  coordinated({
    name: 'standalone-coordination',
    title: 'Standalone backend: one node, no voter network, the same epochs and guards; a job confirms its lease before its effect',
    sources: ['001 §162', '001 §165', '001 §325–326', '001 §327', '000 §160'],
    // More scopes than jobs in flight and longer work: each job runs alone on its scope, and a pause
    // of the one node lands between a job's write and its effect often enough to matter.
    voters: 1,
    workload: { scopes: 8, workMsMin: 200, workMsMax: 400 },
    profile: { holdProbabilityPct: 20, holdMsMax: 700 },
    scripted: [{ f: 'leader-crash', at: 3_000, downMs: 100 }],
    // A backlog of jobs on few scopes drains slowly after the faults: a longer tail lets every job finish.
    livenessMs: 2 * COORD_LIVENESS_MS,
    coordination: { electionTimeoutMsMin: 50, electionTimeoutMsMax: 100, heartbeatMs: 20, faults: { intervalMs: 600, leaderCrashPct: 20, leaderDownMs: 100, leaderPausePct: 30, leaderPauseMsMax: 1_200 } },
  }),
  coordinated({
    name: 'membership-change',
    title: 'Membership lifecycle: nodes join as learners, are promoted once caught up, and a removed leader keeps no authority',
    sources: ['001 §59–66', '001 §157', '001 §227', '001 §338'],
    voters: 3,
    workload: { controllers: 5 },
    scripted: [
      { f: 'member-add', at: 1_500, node: 'c4' },
      { f: 'member-promote', at: 2_500, node: 'c4' },
      { f: 'member-remove', at: 4_000, node: 'leader' },
      { f: 'member-add', at: 5_500, node: 'c5' },
      // An eager operator: asked 10 ms after the add, before a heartbeat reached the learner; the
      // promotion waits until it has caught up (001 §62), and the later request finds it a voter.
      { f: 'member-promote', at: 5_510, node: 'c5' },
      { f: 'member-promote', at: 6_500, node: 'c5' },
      { f: 'member-remove', at: 8_000, node: 'leader' },
    ],
    invariants: ['learner-before-voter', 'removed-node-no-authority'],
    coordination: { faults: { intervalMs: 1_000, leaderPausePct: 15, leaderPauseMsMax: 900, leaderCrashPct: 10, leaderDownMs: 300 } },
  }),
  coordinated({
    name: 'db-healthy-coordination-lost',
    title: 'Database healthy, coordination lost: degraded mode, no unsafe scheduling, attempts finish under their leases',
    sources: ['001 §276', '001 §73–77'],
    voters: 3,
    workload: { leaseTtlMs: 3_000, workMsMin: 300, workMsMax: 1_500 },
    scripted: [{ f: 'quorum-split', at: 3_500, durationMs: 4_000 }],
    invariants: ['quorum-loss-degraded'],
    // A backlog of jobs on few scopes drains slowly after the faults: a longer tail lets every job finish.
    livenessMs: 4 * COORD_LIVENESS_MS,
  }),
  coordinated({
    name: 'coordination-healthy-db-lost',
    title: 'Coordination healthy, database lost: a leader exists but no business write lands',
    sources: ['001 §277', '001 §9', '001 §38'],
    voters: 3,
    scripted: [{ f: 'db-crash', at: 4_000, downMs: 1_500 }],
    invariants: ['quorum-loss-degraded'],
  }),
  // The jobs table is in the database (001 §93): a failover to a lagging replica and a restore from
  // an older backup take the rows back with everything else. A new leader rebuilds its queue from
  // the rows (§84–§85), reopens blocked scopes once it inspected their effects (000 §275), and no
  // job accepted before the image is lost or run twice (001 §283).
  coordinated({
    name: 'jobs-db-failover',
    title: 'Jobs in the database across failover and restore: none accepted before the image is lost, none finished twice',
    sources: ['001 §93', '001 §84–85', '001 §259', '001 §283', '000 §272–276'],
    voters: 3,
    workload: { workMsMin: 200, workMsMax: 900 },
    scripted: [
      { f: 'db-failover', at: 3_000, lagMs: 800 },
      // The leader is cut off from the other voters (not from the database) until its step-down
      // window ends; its successor's epoch reaches the store after the backup was taken.
      { f: 'leader-isolate', at: 5_800, durationMs: 1_500 },
      { f: 'db-restore', at: 6_400, snapshotAgeMs: 600 },
    ],
    invariants: ['release-after-reconcile', 'no-blind-retry', 'restore-invalidates', 'restore-forgets'],
    // The jobs a restore takes back run again after it: a longer tail lets the backlog drain.
    livenessMs: 2 * COORD_LIVENESS_MS,
    coordination: { faults: { intervalMs: 1_000, leaderCrashPct: 10, leaderDownMs: 400, leaderPausePct: 10, leaderPauseMsMax: 900 } },
  }),
  // Who may speak for the cluster: node identity and mutual authentication between daemons
  // (§56–§59, §214–§217), and the platform's own leader election, which must not become an
  // authority (§202–§204).
  // Each kind of false credential once, at fixed times, and more at random, while leaders crash
  // and pause: every voter must refuse every impostor, and the cluster must go on scheduling.
  coordinated({
    name: 'node-impostor',
    title: 'Processes claiming a voter’s name with no, forged, another node’s or a revoked certificate are refused by every voter',
    sources: ['001 §56–59', '001 §214–217', '001 §338', '001 §339'],
    voters: 3,
    scripted: [
      { f: 'impostor', at: 1_500, credential: 'none' },
      { f: 'impostor', at: 3_000, credential: 'other-node' },
      { f: 'impostor', at: 4_500, credential: 'revoked' },
      { f: 'impostor', at: 6_000, credential: 'forged' },
    ],
    invariants: ['peers-authenticated'],
    coordination: { faults: { ...LEADER_CHAOS, impostorPct: 20 } },
  }),
  // The platform's leader election names a daemon that does not lead, now and then, while leaders
  // crash and pause: the daemons must take their roles from the coordination epochs alone.
  coordinated({
    name: 'platform-leader-election',
    title: 'The platform’s leader election names daemons that do not lead; roles follow the coordination epochs alone',
    sources: ['001 §202–204', '001 §338'],
    voters: 3,
    scripted: [
      { f: 'orchestrator-lease', at: 2_000, durationMs: 3_000 },
      { f: 'orchestrator-lease', at: 6_000, durationMs: 2_000 },
    ],
    coordination: { faults: { ...LEADER_CHAOS, orchestratorLeasePct: 20, orchestratorLeaseMsMax: 2_000 } },
  }),
  // An operator's maintenance windows (NoScheduling and others that stop the scheduler, and one
  // that does not), set through the leader while leaders crash and pause: no dispatch under the
  // epoch in force starts inside a window, and the jobs run once it ends.
  coordinated({
    name: 'maintenance-window',
    title: 'Maintenance windows set through the leader stop every daemon’s scheduling until they end; jobs finish after',
    sources: ['001 §129–131', '001 §306', '001 §340'],
    voters: 3,
    scripted: [
      { f: 'maintenance', at: 1_500, state: 'NoScheduling', durationMs: 2_000 },
      { f: 'maintenance', at: 4_500, state: 'NoReleasePromotion', durationMs: 1_000 },
      { f: 'maintenance', at: 6_500, state: 'FullMaintenance', durationMs: 1_500 },
    ],
    invariants: ['maintenance-respected'],
    coordination: { faults: { ...LEADER_CHAOS, maintenancePct: 15, maintenanceMsMax: 1_500 } },
  }),
  // Public clients ask the API to propose a raw ElectLeader, now and then, while leaders crash and
  // pause: the API refuses every one, and leadership changes only by elections.
  coordinated({
    name: 'raw-api-proposal',
    title: 'Public clients send raw coordination commands to the API; every one is refused and leaders are only elected',
    sources: ['001 §220–223', '001 §338', '001 §340'],
    voters: 3,
    scripted: [{ f: 'raw-proposal', at: 2_000 }, { f: 'raw-proposal', at: 5_000 }, { f: 'raw-proposal', at: 7_500 }],
    coordination: { faults: { ...LEADER_CHAOS, rawProposalPct: 20 } },
  }),
  // Jobs with artifacts while the artifact store goes out, now and then, and leaders crash and
  // pause: coordination goes on, no effect is made without its artifact, and every job finishes
  // once the store is back.
  coordinated({
    name: 'cas-outage',
    title: 'The artifact store goes out under jobs that need artifacts: attempts give their jobs back, and every job finishes later',
    sources: ['001 §4', '001 §100', '001 §278', '001 §340'],
    voters: 3,
    scripted: [
      { f: 'cas-outage', at: 2_000, durationMs: 1_500 },
      { f: 'cas-outage', at: 5_500, durationMs: 1_000 },
    ],
    invariants: ['artifact-from-cas'],
    coordination: { artifacts: true, faults: { ...LEADER_CHAOS, casOutagePct: 20, casOutageMsMax: 1_200 } },
  }),
  // Three regions: the voters in one, regional daemons that take jobs in the others, and the
  // wide-area links between them cut now and then. Every cut leaves the quorum in one region.
  coordinated({
    name: 'regions-wan-cut',
    title: 'Daemons in three regions with the voters in one; the wide-area links between them are cut now and then',
    sources: ['001 §187–189', '001 §338', '001 §340'],
    voters: 3,
    workload: { controllers: 5 },
    scripted: [
      { f: 'wan-partition', at: 1_500, durationMs: 2_000 },
      { f: 'wan-partition', at: 5_000, durationMs: 1_500 },
    ],
    invariants: ['quorum-in-one-region'],
    coordination: { regions: 3, faults: { intervalMs: 1_000, wanPartitionPct: 25, wanPartitionMsMax: 1_500 } },
  }),
] satisfies ReadonlyArray<ScenarioInput>;
