// Scenarios of seed 001 on message-level consensus (`coordination.consensus: 'raft'`, sim/raft/):
// the voters run Raft over one-way messages that are delayed, lost, held back (so reordered) and
// duplicated, while leaders crash, pause and are cut off. Judged by the Raft safety checkers
// (§283, §340) as well as the coordination and lease invariants of the abstract scenarios.

import { NET } from './profiles.ts';
import type { ScenarioInput } from './schema.ts';

const RAFT = ['raft-election-safety', 'raft-log-matching', 'raft-leader-completeness', 'raft-state-machine-safety'] as const;
const COORD = ['one-owner-per-epoch', 'lease-exclusive', 'fencing-monotonic', 'no-phantom-lease', 'no-lost-update', 'one-leader-per-term', 'fenced-stale-leader', 'jobs-complete'] as const;
const WORKLOAD = { scopes: 4, mix: { 'env-deploy': 1 }, horizonMs: 10_000, leaseTtlMs: 1_500, workMsMin: 50, workMsMax: 300 } as const;
/** Slow links whose messages overtake each other (the database links share them; loss is the voters' own, below). */
const LINKS = { ...NET, networkDelayMsMax: 20 } as const;

export const RAFT_SCENARIOS: ReadonlyArray<ScenarioInput> = [
  {
    name: 'raft-failover',
    title: 'Raft on three voters: leader crashes, pauses and isolation over lossy, reordering links; one leader per term, one committed history',
    sources: ['001 §283', '001 §340', '001 §259–260', '001 §55'],
    workload: { ...WORKLOAD, controllers: 3 },
    faults: { profile: { ...LINKS } },
    invariants: [...COORD, ...RAFT, 'cluster-doctor'],
    expect: 'pass',
    operations: 40,
    liveness: { boundMs: 5_000 },
    coordination: {
      voters: 3,
      consensus: 'raft',
      faults: { intervalMs: 700, leaderCrashPct: 15, leaderDownMs: 300, leaderPausePct: 15, leaderPauseMsMax: 900, leaderIsolatePct: 15, leaderIsolateMsMax: 1_500, newLeaderCrashPct: 20, newLeaderIsolatePct: 20, newLeaderIsolateMsMax: 1_000, messageLossPct: 5, messageDuplicatePct: 10 },
    },
  },
  {
    // The Raft paper's Figure 8: a leader that counted replicas of an entry of an earlier term
    // would commit it, and a later leader elected without it would overwrite it. Every new leader
    // is cut off from all voters but one as it appends its entry, so entries of different terms
    // sit at one index on different minorities.
    name: 'raft-old-term-commit',
    title: 'Raft on five voters with leaders crashing soon after election: an entry of an earlier term is never committed by counting replicas',
    sources: ['001 §283', '001 §340', '001 §69'],
    workload: { ...WORKLOAD, controllers: 5 },
    faults: { profile: { ...LINKS } },
    invariants: [...COORD, ...RAFT, 'cluster-doctor'],
    expect: 'pass',
    operations: 40,
    liveness: { boundMs: 8_000 },
    coordination: {
      voters: 5,
      consensus: 'raft',
      electionTimeoutMsMin: 150,
      electionTimeoutMsMax: 400,
      heartbeatMs: 50,
      faults: { intervalMs: 200, leaderCrashPct: 35, leaderDownMs: 150, leaderIsolatePct: 20, leaderIsolateMsMax: 600, newLeaderIsolatePct: 100, newLeaderIsolateMsMax: 1_500, messageLossPct: 5, messageDuplicatePct: 10 },
    },
  },
  {
    // Voters crash and come back within a term while elections split: a vote that did not survive
    // the restart would be given twice, to two candidates of one term (001 §167, §169, §272).
    name: 'raft-voter-restart',
    title: 'Raft on five voters that crash and restart within a term during split elections: a vote is given once per term',
    sources: ['001 §167', '001 §169', '001 §283'],
    workload: { ...WORKLOAD, controllers: 5 },
    faults: { profile: { ...LINKS, nemesisIntervalMs: 50, crashProbabilityPct: 40, restartDelayMs: 5 } },
    invariants: [...COORD, ...RAFT, 'cluster-doctor'],
    expect: 'pass',
    operations: 40,
    liveness: { boundMs: 8_000 },
    coordination: {
      voters: 5,
      consensus: 'raft',
      electionTimeoutMsMin: 150,
      electionTimeoutMsMax: 180,
      heartbeatMs: 50,
      faults: { intervalMs: 300, leaderCrashPct: 30, leaderDownMs: 100, newLeaderIsolatePct: 100, newLeaderIsolateMsMax: 800, messageLossPct: 5 },
    },
  },
  {
    // A voter's disk is wiped or found corrupt: it comes back with no term, vote or log, and must
    // not vote again, since what it voted and acknowledged before is unknown (001 §168–§169, §272).
    name: 'raft-voter-state-loss',
    title: 'Raft on five voters, some of which lose their durable state: a voter that lost it fails safe and never votes again',
    sources: ['001 §168', '001 §169', '001 §272', '001 §283'],
    workload: { ...WORKLOAD, controllers: 5 },
    // Partitions leave some voters behind the log, so a voter that forgot what it stored can
    // side with them.
    faults: { profile: { ...LINKS, nemesisIntervalMs: 200, partitionProbabilityPct: 30, partitionMsMax: 600 } },
    invariants: [...COORD, ...RAFT, 'cluster-doctor'],
    expect: 'pass',
    operations: 40,
    liveness: { boundMs: 8_000 },
    coordination: {
      voters: 5,
      consensus: 'raft',
      electionTimeoutMsMin: 150,
      electionTimeoutMsMax: 250,
      heartbeatMs: 50,
      faults: { intervalMs: 200, leaderCrashPct: 20, leaderDownMs: 100, voterStateLossPct: 30, voterStateLossDownMs: 50, newLeaderIsolatePct: 50, newLeaderIsolateMsMax: 800, messageLossPct: 5 },
    },
  },
  {
    // A rolling upgrade of three voters, one after another (N/N-1 side by side for most of the
    // run), while leaders crash: the new command version is used only once all three read it.
    name: 'raft-rolling-upgrade',
    title: 'Rolling upgrade of three Raft voters under leader crashes: a new command version waits until every voter reads it',
    sources: ['001 §149–156', '001 §269', '001 §283'],
    workload: { ...WORKLOAD, controllers: 3 },
    faults: {
      profile: { ...LINKS },
      scripted: [
        { f: 'voter-upgrade', at: 1_500, node: 'c1', downMs: 200 },
        { f: 'voter-upgrade', at: 4_500, node: 'c2', downMs: 200 },
        { f: 'voter-upgrade', at: 7_500, node: 'c3', downMs: 200 },
      ],
    },
    invariants: [...COORD, ...RAFT, 'feature-activation', 'cluster-doctor'],
    expect: 'pass',
    operations: 40,
    liveness: { boundMs: 5_000 },
    coordination: { voters: 3, consensus: 'raft', faults: { intervalMs: 500, leaderCrashPct: 20, leaderDownMs: 200, messageLossPct: 5 } },
  },
  {
    // An operator drains the leader again and again while it schedules: it must stop its role
    // before the follower it hands on to takes over (001 §270, §294).
    name: 'raft-leader-transfer',
    title: 'Leadership transfer on three Raft voters: a drained leader stops scheduling before it hands leadership on',
    sources: ['001 §270', '001 §293–295', '001 §283'],
    workload: { ...WORKLOAD, controllers: 3 },
    faults: { profile: { ...LINKS } },
    invariants: [...COORD, ...RAFT, 'drained-leader-stops', 'cluster-doctor'],
    expect: 'pass',
    operations: 40,
    liveness: { boundMs: 5_000 },
    coordination: { voters: 3, consensus: 'raft', schedulerTickMs: 20, faults: { intervalMs: 300, leaderTransferPct: 50, messageLossPct: 5 } },
  },
];
