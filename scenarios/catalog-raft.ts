// Scenarios of seed 001 on message-level consensus (`coordination.consensus: 'raft'`, sim/raft/):
// the voters run Raft over one-way messages that are delayed, lost, held back (so reordered) and
// duplicated, while leaders crash, pause and are cut off. Judged by the Raft safety checkers
// (§283, §340) as well as the coordination and lease invariants of the abstract scenarios.

import type { InvariantName } from '../model/checkers/index.ts';
import type { CoordinationInput } from './coordination-options.ts';
import { COORD } from './catalog-001.ts';
import { NET } from './profiles.ts';
import type { ScenarioInput } from './schema.ts';

const RAFT = ['raft-election-safety', 'raft-log-matching', 'raft-leader-completeness', 'raft-state-machine-safety', 'raft-log-narrow'] as const;
const WORKLOAD = { scopes: 4, mix: { 'env-deploy': 1 }, horizonMs: 10_000, leaseTtlMs: 1_500, workMsMin: 50, workMsMax: 300 } as const;
/** Slow links whose messages overtake each other (the database links share them; loss is the voters' own, below). */
const LINKS = { ...NET, networkDelayMsMax: 20 } as const;
/** Five voters elect fast and often: short timeouts, a heartbeat every 50 ms. */
const FAST = { electionTimeoutMsMin: 150, heartbeatMs: 50 } as const;

type Faults = NonNullable<ScenarioInput['faults']>;

/** What makes a Raft scenario its own; the workload, links, lease and Raft invariants and 40 operations are shared. */
interface RaftScenario extends Pick<ScenarioInput, 'name' | 'title' | 'sources'> {
  readonly voters: 3 | 5;
  /** Controllers beyond the voters start outside the cluster; an operator may add them (default: the voters alone). */
  readonly controllers?: number;
  readonly horizonMs?: number;
  readonly profile?: Faults['profile'];
  readonly scripted?: Faults['scripted'];
  /** Judged besides the lease, coordination and Raft safety invariants. */
  readonly invariants: ReadonlyArray<InvariantName>;
  readonly livenessMs: number;
  readonly coordination: Omit<CoordinationInput, 'voters' | 'consensus'>;
}

function raft<const N extends string>(s: RaftScenario & { readonly name: N }): ScenarioInput & { readonly name: N } {
  return {
    name: s.name,
    title: s.title,
    sources: s.sources,
    workload: { ...WORKLOAD, controllers: s.controllers ?? s.voters, ...(s.horizonMs === undefined ? {} : { horizonMs: s.horizonMs }) },
    faults: { profile: { ...LINKS, ...s.profile }, ...(s.scripted === undefined ? {} : { scripted: s.scripted }) },
    invariants: [...COORD, ...RAFT, ...s.invariants],
    expect: 'pass',
    operations: 40,
    liveness: { boundMs: s.livenessMs },
    coordination: { voters: s.voters, consensus: 'raft', ...s.coordination },
  };
}

export const RAFT_SCENARIOS = [
  raft({
    name: 'raft-failover',
    title: 'Raft on three voters: leader crashes, pauses and isolation over lossy, reordering links; one leader per term, one committed history',
    sources: ['001 §283', '001 §340', '001 §259–260', '001 §55'],
    voters: 3,
    invariants: ['cluster-doctor'],
    livenessMs: 5_000,
    coordination: {
      faults: { intervalMs: 700, leaderCrashPct: 15, leaderDownMs: 300, leaderPausePct: 15, leaderPauseMsMax: 900, leaderIsolatePct: 15, leaderIsolateMsMax: 1_500, newLeaderCrashPct: 20, newLeaderIsolatePct: 20, newLeaderIsolateMsMax: 1_000, messageLossPct: 5, messageDuplicatePct: 10 },
    },
  }),
  // The Raft paper's Figure 8: a leader that counted replicas of an entry of an earlier term
  // would commit it, and a later leader elected without it would overwrite it. Every new leader
  // is cut off from all voters but one as it appends its entry, so entries of different terms
  // sit at one index on different minorities.
  raft({
    name: 'raft-old-term-commit',
    title: 'Raft on five voters with leaders crashing soon after election: an entry of an earlier term is never committed by counting replicas',
    sources: ['001 §283', '001 §340', '001 §69'],
    voters: 5,
    invariants: ['cluster-doctor'],
    livenessMs: 10_000,
    coordination: {
      ...FAST,
      electionTimeoutMsMax: 400,
      faults: { intervalMs: 200, leaderCrashPct: 35, leaderDownMs: 150, leaderIsolatePct: 20, leaderIsolateMsMax: 600, newLeaderIsolatePct: 100, newLeaderIsolateMsMax: 1_500, messageLossPct: 5, messageDuplicatePct: 10 },
    },
  }),
  // Voters crash and come back within a term while elections split: a vote that did not survive
  // the restart would be given twice, to two candidates of one term (001 §167, §169, §272).
  raft({
    name: 'raft-voter-restart',
    title: 'Raft on five voters that crash and restart within a term during split elections: a vote is given once per term',
    sources: ['001 §167', '001 §169', '001 §283'],
    voters: 5,
    profile: { nemesisIntervalMs: 50, crashProbabilityPct: 40, restartDelayMs: 5 },
    invariants: ['cluster-doctor'],
    livenessMs: 8_000,
    coordination: { ...FAST, electionTimeoutMsMax: 180, faults: { intervalMs: 300, leaderCrashPct: 30, leaderDownMs: 100, newLeaderIsolatePct: 100, newLeaderIsolateMsMax: 800, messageLossPct: 5 } },
  }),
  // A voter's disk is wiped or found corrupt: it comes back with no term, vote or log, and must
  // not vote again, since what it voted and acknowledged before is unknown (001 §168–§169, §272).
  // Partitions leave some voters behind the log, so a voter that forgot what it stored can side
  // with them; the run is longer, since that needs an entry on a bare majority that includes it.
  raft({
    name: 'raft-voter-state-loss',
    title: 'Raft on five voters, some of which lose their durable state: a voter that lost it fails safe and never votes again',
    sources: ['001 §168', '001 §169', '001 §272', '001 §283'],
    voters: 5,
    horizonMs: 20_000,
    profile: { nemesisIntervalMs: 200, partitionProbabilityPct: 30, partitionMsMax: 600 },
    invariants: ['cluster-doctor'],
    livenessMs: 10_000,
    coordination: {
      ...FAST,
      electionTimeoutMsMax: 600,
      faults: { intervalMs: 200, leaderCrashPct: 20, leaderDownMs: 100, voterStateLossPct: 80, voterStateLossDownMs: 50, newLeaderIsolatePct: 100, newLeaderIsolateMsMax: 1_500, messageLossPct: 5 },
    },
  }),
  // A rolling upgrade of three voters, one after another (N/N-1 side by side for most of the
  // run), while leaders crash: the new command version is used only once all three read it. The
  // voters compact their logs, so snapshots built from new commands reach voters too.
  raft({
    name: 'raft-rolling-upgrade',
    title: 'Rolling upgrade of three Raft voters under leader crashes: a new command version waits until every voter reads it',
    sources: ['001 §149–156', '001 §269', '001 §283'],
    voters: 3,
    scripted: [
      { f: 'voter-upgrade', at: 1_500, node: 'c1', downMs: 200 },
      { f: 'voter-upgrade', at: 4_500, node: 'c2', downMs: 200 },
      { f: 'voter-upgrade', at: 7_500, node: 'c3', downMs: 200 },
    ],
    invariants: ['feature-activation', 'raft-log-bounded', 'cluster-doctor'],
    livenessMs: 5_000,
    coordination: { snapshotEntries: 2, faults: { intervalMs: 500, leaderCrashPct: 20, leaderDownMs: 200, messageLossPct: 5 } },
  }),
  // An operator drains the leader again and again while it schedules: it must stop its role
  // before the follower it hands on to takes over (001 §270, §294).
  raft({
    name: 'raft-leader-transfer',
    title: 'Leadership transfer on three Raft voters: a drained leader stops scheduling before it hands leadership on',
    sources: ['001 §270', '001 §293–295', '001 §283'],
    voters: 3,
    invariants: ['drained-leader-stops', 'cluster-doctor'],
    livenessMs: 5_000,
    coordination: { schedulerTickMs: 20, faults: { intervalMs: 300, leaderTransferPct: 50, messageLossPct: 5 } },
  }),
  // Every voter compacts its log every two applied entries while partitions and crashes leave
  // some far behind: a follower the leader's log no longer reaches is sent the snapshot, and a
  // restarted voter loads its own. Leaders cut off as they append leave entries of different
  // terms at one index, which a snapshot must not take before they commit (001 §338, §340).
  raft({
    name: 'raft-compaction',
    title: 'Raft on five voters that compact their logs into snapshots while partitions and crashes leave followers behind: logs stay bounded, snapshots hold only committed entries',
    sources: ['001 §338', '001 §340', '001 §271', '001 §283'],
    voters: 5,
    profile: { nemesisIntervalMs: 200, partitionProbabilityPct: 30, partitionMsMax: 1_500, crashProbabilityPct: 10, restartDelayMs: 400 },
    invariants: ['raft-log-bounded', 'cluster-doctor'],
    livenessMs: 8_000,
    coordination: {
      ...FAST,
      electionTimeoutMsMax: 300,
      snapshotEntries: 2,
      faults: { intervalMs: 200, leaderCrashPct: 25, leaderDownMs: 150, newLeaderIsolatePct: 50, newLeaderIsolateMsMax: 800, messageLossPct: 5, messageDuplicatePct: 10 },
    },
  }),
  // Agents stream the job events from whichever daemon they reach, while daemons crash for long
  // stretches, restart as new processes and pause: each agent reconnects to another daemon and
  // backfills from its cursor (001 §112–§118, §274–§275, §339 "agent/API failover works").
  raft({
    name: 'agent-failover',
    title: 'Agents stream job events from any daemon while daemons crash, restart and pause: each reconnects elsewhere and misses nothing',
    sources: ['001 §112–118', '001 §274–275', '001 §102'],
    voters: 3,
    profile: { nemesisIntervalMs: 300, crashProbabilityPct: 25, restartDelayMs: 1_200, pauseProbabilityPct: 10, pauseMsMax: 400 },
    invariants: ['stream-gapless', 'agents-reconnect'],
    livenessMs: 10_000,
    coordination: { agents: 3, agentPollMs: 100, agentReconnectMs: 200, faults: { intervalMs: 700, leaderCrashPct: 20, leaderDownMs: 1_000, messageLossPct: 5 } },
  }),
  // Membership changes as entries of the log (single-server changes, 001 §157): two nodes join
  // as learners and are promoted once caught up (one of them only after a pause and a new
  // leader's epoch), and a voter (the one leading when the request is first made) is removed, over lossy links while
  // leaders crash. A change waits for the previous one to commit.
  raft({
    name: 'raft-membership-change',
    title: 'Raft membership changes one at a time: two learners join and are promoted once caught up, the leader is removed, under crashes and message loss',
    sources: ['001 §157', '001 §59–66', '001 §267', '001 §283'],
    voters: 3,
    controllers: 5,
    scripted: [
      { f: 'member-add', at: 1_000, node: 'c4' },
      { f: 'member-promote', at: 1_500, node: 'c4' },
      // c5 joins, then stops for a while; a new leader is elected meanwhile, and c5's promotion
      // is asked for before it has caught up with that leader's epoch: it must wait.
      { f: 'member-add', at: 3_000, node: 'c5' },
      { f: 'pause', at: 3_600, node: 'c5', durationMs: 2_500 },
      { f: 'leader-crash', at: 4_000, downMs: 300 },
      { f: 'member-promote', at: 5_000, node: 'c5' },
      { f: 'member-remove', at: 7_000, node: 'leader' },
    ],
    invariants: ['learner-before-voter', 'removed-node-no-authority', 'cluster-doctor'],
    livenessMs: 5_000,
    coordination: {
      faults: { intervalMs: 700, leaderCrashPct: 10, leaderDownMs: 300, leaderPausePct: 10, leaderPauseMsMax: 600, messageLossPct: 5, messageDuplicatePct: 10 },
    },
  }),
] satisfies ReadonlyArray<ScenarioInput>;
