// The policy mutants of the message-level consensus (sim/raft/, seed 001 §283): each breaks one
// rule of Raft, or of the rolling upgrade and leadership transfer built on it. One entry a
// mutant: its name, the one flag of model/controller-policy.ts it flips, and what it breaks and
// what must catch it (mutants/entry.ts says how to write one).

import { mutantTable, type PolicyMutant } from '../entry.ts';

export const RAFT_MUTANTS = mutantTable<PolicyMutant>({
  // Seed 001 §283, §340 (one committed coordination history); Raft paper 5.4.2. A Raft leader
  // commits an entry of an earlier term once it counts a majority of replicas of it, instead of
  // committing only entries of its own term (and earlier ones with them). A later leader elected
  // without that entry overwrites it: two nodes apply different entries at one index (the Raft
  // paper's Figure 8).
  'commits-old-term-entries': {
    bug: 'a Raft leader commits an entry of an earlier term by counting its replicas',
    source: '001 §283, §340',
    rows: ['001-339-chaos'],
    rule: 'raft-state-machine-safety: no two nodes apply different entries at one index; raft-leader-completeness: every leader holds what was committed before it',
    invariants: ['raft-state-machine-safety', 'raft-leader-completeness'],
    scenarios: ['raft-old-term-commit'],
    flips: 'commitCurrentTermOnly',
  },
  // Seed 001 §167 (durable writes), §169 (voter state is never silently reset), §283. A Raft voter
  // keeps its vote only in memory: restarted within a term, it votes again, for another candidate,
  // and two candidates win the same term.
  'vote-forgotten-on-restart': {
    bug: 'a restarted Raft voter has forgotten whom it voted for in its current term and votes again',
    source: '001 §167, §169, §283',
    rows: ['001-339-snapshot-restart', '001-338-raft-corruption-fails-safe'],
    rule: 'raft-election-safety: at most one candidate wins the votes of a majority in a term',
    invariants: ['raft-election-safety'],
    scenarios: ['raft-voter-restart', 'raft-old-term-commit'],
    flips: 'votesPersist',
  },
  // Seed 001 §283, §340; Raft paper 5.4.1. A Raft voter grants its vote without comparing logs: a
  // candidate that lacks committed entries wins, and its log replaces theirs.
  'vote-ignores-log': {
    bug: 'a Raft voter votes for a candidate whose log is behind its own',
    source: '001 §283, §340',
    rows: ['001-339-chaos'],
    rule: 'raft-leader-completeness: every leader holds every entry committed before it won',
    invariants: ['raft-leader-completeness', 'raft-state-machine-safety'],
    scenarios: ['raft-failover', 'raft-old-term-commit'],
    flips: 'votesNeedUpToDateLog',
  },
  // Seed 001 §283, §340; Raft paper 5.3. A Raft follower appends a leader's entries after whatever
  // it holds at the leader's previous index, without checking that it is the leader's entry: logs
  // that agree at one entry disagree before it.
  'append-skips-consistency-check': {
    bug: "a Raft follower appends without checking that it holds the leader's previous entry",
    source: '001 §283, §340',
    rows: ['001-339-chaos'],
    rule: 'raft-log-matching: two logs with the same entry at an index are identical up to it',
    invariants: ['raft-log-matching', 'raft-state-machine-safety', 'raft-leader-completeness'],
    scenarios: ['raft-failover', 'raft-old-term-commit'],
    flips: 'appendChecksPrevious',
  },
  // Seed 001 §168 (a node with corrupt disk state fails safe), §169 ("do not silently reset voter
  // state: it could cause split brain"), §272, §283. A Raft voter whose durable state was wiped
  // comes back as if new and votes: in a term it already voted in, for another candidate, or for a
  // candidate that lacks the entries it had acknowledged.
  'wiped-voter-votes': {
    bug: 'a Raft voter whose durable state was wiped silently starts afresh and votes again',
    source: '001 §168–§169, §272, §283',
    rows: ['001-338-raft-corruption-fails-safe'],
    rule: 'raft-election-safety and raft-leader-completeness: a voter that lost what it voted and stored does not vote',
    invariants: ['raft-election-safety', 'raft-leader-completeness', 'raft-state-machine-safety'],
    scenarios: ['raft-voter-state-loss'],
    flips: 'lostStateFailsSafe',
  },
  // Seed 001 §152–§156 (a feature is used only after all required voters support it; staged
  // capability negotiation, no flag day), §269. An upgraded Raft leader encodes its commands at its
  // own binary's version while voters on the old binary are still in the cluster: they cannot read
  // what was committed and stop following the coordination state.
  'feature-before-all-voters': {
    bug: 'an upgraded Raft leader uses a new command version before every voter runs a binary that reads it',
    source: '001 §152–§156, §269',
    rows: ['001-339-rolling-upgrade', '001-338-rolling-upgrade-matrix', '001-338-feature-activation-waits', '001-340-inv-rolling-upgrades', '001-340-inv-snapshots-compact'],
    rule: 'feature-activation: a command version is used only once every voter reads it',
    invariants: ['feature-activation'],
    scenarios: ['raft-rolling-upgrade'],
    flips: 'featuresWaitForAllVoters',
  },
  // Seed 001 §270 (drain the leader cleanly), §294 (stop order: mark the role inactive, cancel
  // leader loops, invalidate the local epoch). A drained Raft leader hands leadership to a follower
  // and goes on scheduling until it hears of the new term.
  'transfer-before-stop': {
    bug: 'a drained Raft leader hands leadership on before it stops its role, and keeps scheduling',
    source: '001 §270, §294',
    rows: ['001-338-leadership-loss-invalidates-guard', '001-340-inv-old-guards-fenced'],
    rule: 'drained-leader-stops: no guarded lease creation by a leader after it handed leadership on',
    invariants: ['drained-leader-stops'],
    scenarios: ['raft-leader-transfer'],
    flips: 'stopRoleBeforeTransfer',
  },
  // Seed 001 §83 and §93 (the epoch a leader owns is the one consensus committed, and it reaches
  // the store before any lease is created under it), §243 (the coordination epoch is never behind
  // the store's). A Raft leader takes its role, and advances the store's epoch, as soon as it
  // appends its entry; when that entry is lost, the next leader's committed epoch can be below what
  // the store already holds.
  'guard-before-commit': {
    bug: 'a Raft leader takes its role from its own uncommitted entry',
    source: '001 §83, §93, §243',
    rows: ['001-339-cluster-doctor'],
    rule: 'cluster-doctor: the store never holds a role epoch above the one the coordination state committed',
    invariants: ['cluster-doctor', 'one-leader-per-term'],
    scenarios: ['raft-old-term-commit'],
    flips: 'guardAfterCommit',
  },
  // Seed 001 §338 ("Raft log/snapshots are bounded/compacted", "Raft state remains narrow and
  // bounded"), §340. A Raft node never replaces what it applied with a snapshot: its log grows with
  // every leadership change for as long as the cluster runs.
  'log-never-compacted': {
    bug: 'a Raft node never compacts its log into a snapshot',
    source: '001 §338, §340',
    rows: ['001-338-raft-state-bounded', '001-338-raft-log-compacted', '001-340-inv-coordination-bounded', '001-340-inv-snapshots-compact'],
    rule: 'raft-log-bounded: a node keeps at most snapshotEntries applied entries beyond its snapshot',
    invariants: ['raft-log-bounded'],
    scenarios: ['raft-compaction'],
    flips: 'compactsLog',
  },
  // Seed 001 §338, §283; the Raft paper's section 7 (a snapshot covers committed entries only). A
  // Raft node sizes its snapshot by its log, not by what it applied: it takes entries that are not
  // yet committed into the snapshot and counts them as applied; a later leader commits other
  // entries at those indexes.
  'snapshot-takes-uncommitted': {
    bug: 'a Raft node compacts its whole log, uncommitted entries included, and counts them as applied',
    source: '001 §283, §338',
    rows: ['001-339-snapshot-restart', '001-338-raft-log-compacted', '001-340-inv-snapshots-compact'],
    rule: 'raft-state-machine-safety: no two nodes apply different entries at one index; raft-leader-completeness: every leader holds what was committed before it',
    invariants: ['raft-state-machine-safety', 'raft-leader-completeness'],
    scenarios: ['raft-compaction'],
    flips: 'snapshotsCommittedOnly',
  },
  // Seed 001 §338 ("Run/Job rows never enter Raft"), §340 ("Raft is not the business database").
  // A Raft leader appends a row for each job it dispatches to the consensus log, beside the
  // coordination commands: business state now lives in the coordination layer.
  'job-rows-in-raft': {
    bug: 'a Raft leader writes each dispatched job to the consensus log',
    source: '001 §338, §340',
    rows: ['001-338-run-job-not-in-raft', '001-338-raft-state-bounded', '001-340-inv-raft-not-business-db', '001-340-inv-coordination-bounded'],
    rule: 'raft-log-narrow: the consensus log replicates coordination commands only',
    invariants: ['raft-log-narrow'],
    scenarios: ['raft-compaction', 'raft-failover'],
    flips: 'jobsStayInStore',
  },
});
