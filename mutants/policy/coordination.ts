// The policy mutants of the coordination layer of seed 001 (leaders and their role epochs,
// membership, quorum), on the abstract consensus and, for minority-election, on both. One entry a
// mutant: its name, the one flag of model/controller-policy.ts it flips, and what it breaks and
// what must catch it (mutants/entry.ts says how to write one).

import { mutantTable, type PolicyMutant } from '../entry.ts';

export const COORDINATION_MUTANTS = mutantTable<PolicyMutant>({
  // Seed 001 §74–§75 (a leader that loses its majority stops within its window), §96, §294
  // ("step-down invalidates the role guard"), §296–§305. Stepping down changes the node's role but
  // the guard object stays valid in the process: the scheduler loop keeps creating leases with it
  // through a quorum loss.
  'role-guard-survives-step-down': {
    bug: 'a leader’s role guard stays usable after it steps down, so it keeps scheduling without a majority',
    source: '001 §74–§75, §96, §294, §296–§305',
    rows: ['001-339-quorum-loss-degraded', '001-338-quorum-loss-blocks', '001-340-inv-quorum-loss-stops'],
    rule: 'quorum-loss-degraded: no guarded lease creation later than the step-down bound after quorum is lost',
    invariants: ['quorum-loss-degraded', 'fenced-stale-leader'],
    scenarios: ['quorum-loss', 'db-healthy-coordination-lost'],
    flips: 'guardEndsWithRole',
  },
  // Seed 001 §71–§75 ("a leader that cannot reach a majority steps down within its lease window"),
  // §98, §261 quorum-loss test. The leader never checks that its heartbeats still reach a majority:
  // cut off from every other voter, it goes on leading and scheduling.
  'no-check-quorum': {
    bug: 'the leader never steps down when its heartbeats stop reaching a majority (no check-quorum)',
    source: '001 §71–§75, §98, §261',
    rows: ['001-339-quorum-loss-degraded', '001-338-quorum-loss-blocks', '001-340-inv-quorum-loss-stops'],
    rule: 'quorum-loss-degraded: leadership stops within the step-down bound after quorum is lost',
    invariants: ['quorum-loss-degraded'],
    scenarios: ['quorum-loss', 'db-healthy-coordination-lost'],
    flips: 'checkQuorum',
  },
  // Seed 001 §16–§17, §62–§63 ("join as learner, promote once caught up"), §157, §338 ("New member
  // joins as learner before voter"). Adding a member commits it as a voter at once: the majority
  // grows by a node that has none of the log and votes immediately.
  'voter-without-learner-stage': {
    bug: 'a new member is added directly as a voter, skipping the learner stage',
    source: '001 §16–§17, §62–§63, §157, §338',
    rows: ['001-338-learner-before-voter', '001-340-inv-learners-first'],
    rule: 'learner-before-voter: every voter outside the bootstrap configuration was a learner first',
    invariants: ['learner-before-voter'],
    scenarios: ['membership-change'],
    flips: 'learnerFirst',
  },
  // Seed 001 §62 ("join as learner, catch up, verify health, promote to voter"), §338 ("New member
  // joins as learner before voter"). An operator's promotion is committed as soon as it is asked
  // for, whether or not the learner has caught up: a voter joins the majority without the committed
  // state.
  'learner-promoted-before-caught-up': {
    bug: 'a learner is promoted to voter before it has caught up with the committed state',
    source: '001 §62, §338',
    rows: ['001-339-membership-lifecycle', '001-338-learner-before-voter', '001-340-inv-membership-authoritative', '001-340-inv-learners-first'],
    rule: 'learner-before-voter: a learner is promoted only once it knows the committed epoch',
    invariants: ['learner-before-voter'],
    scenarios: ['membership-change', 'raft-membership-change'],
    flips: 'promoteWhenCaughtUp',
  },
  // Seed 001 §67–§71 (a leader is elected by a majority of the voters), §89, §283, §340 (election
  // safety). The vote count compares with half the voters instead of a majority: an isolated voter,
  // or one side of an even split, elects itself.
  'minority-election': {
    bug: 'an election is won with half the voters’ votes rounded down, not a majority',
    source: '001 §67–§71, §89, §283',
    rows: ['001-339-three-node-failover', '001-339-quorum-loss-degraded', '001-338-one-leader-elected', '001-338-minority-cannot-commit', '001-338-no-split-authority', '001-340-inv-one-leader-per-term'],
    rule: 'one-leader-per-term: a leader is elected by a majority of the voters of its term',
    invariants: ['one-leader-per-term', 'raft-election-safety'],
    scenarios: ['minority-partition', 'quorum-loss', 'three-node-failover', 'raft-failover'],
    flips: 'majorityElections',
  },
  // Seed 001 §29 ("each leadership change gets a new epoch"), §82–§88, §94, §264–§265 (an old
  // coordinator cannot promote after a new epoch). When leadership changes hands the role
  // assignment keeps its predecessor's epoch: the new coordinator's guard carries the same epoch as
  // the deposed one's, so the store cannot tell their promotions apart.
  'role-epoch-not-bumped': {
    bug: 'a new leader’s role guard carries its predecessor’s role epoch instead of the epoch its election committed',
    source: '001 §29, §82–§88, §94, §264–§265',
    rows: ['001-339-three-node-failover', '001-338-release-promotion-fenced', '001-338-deployment-actions-fenced', '001-338-standalone-same-semantics', '001-340-inv-standalone-same'],
    rule: 'no-split-promotion: one coordinator epoch’s promotions come from one coordinator incarnation',
    invariants: ['no-split-promotion', 'fenced-stale-leader'],
    scenarios: ['release-coordinator-epoch', 'deployment-coordinator-epoch', 'three-node-failover', 'standalone-coordination'],
    flips: 'newRoleEpochPerLeader',
  },
  // Seed 001 §84–§85, §88 (a new leader rebuilds the scheduler's view from the database and
  // reconciles what the previous leader left in flight), §259 (leader failover test). A leader
  // dispatches the eligible jobs it lists but trusts a leased row: a job whose attempt died with
  // its process stays leased to a lease that no longer lives, and is never run.
  'new-leader-skips-reclaim': {
    bug: 'a leader never dispatches again a job left leased by an attempt that died, so it is never run',
    source: '001 §84–§85, §88, §259',
    rows: ['001-338-postgres-metadata-authority', '001-338-leader-reconstructs-from-db', '001-340-inv-postgres-authority', '001-340-inv-leaders-from-db', '001-340-inv-reconciliation-follows-failover'],
    rule: 'jobs-complete: every job submitted finishes once faults heal, within the bound of its turn on its scope',
    invariants: ['jobs-complete'],
    scenarios: ['three-node-failover', 'restart-incarnation', 'standalone-coordination'],
    flips: 'reclaimOnLead',
  },
  // Seed 001 §112 ("On disconnect, client reconnects/backfills"), §275 (SSE reconnect test). A
  // daemon resumes a reconnected agent's event stream at the live end of the table, not after the
  // agent's cursor: what happened while it was disconnected is never delivered.
  'stream-resumes-at-tail': {
    bug: "a reconnected event stream resumes at the table's end instead of after the agent's cursor",
    source: '001 §112, §275',
    rows: ['001-339-agent-api-failover', '001-338-stream-reconnect-backfill'],
    rule: 'stream-gapless: every agent receives every event once, in order, across reconnects',
    invariants: ['stream-gapless'],
    scenarios: ['agent-failover'],
    flips: 'streamResumesAtCursor',
  },
  // Seed 001 §112 ("On disconnect, client reconnects/backfills"), §275. A reconnected stream sends
  // the backlog after the agent's cursor and is never subscribed to what comes next: without a gap
  // or a repeat, the agent stops hearing of events.
  'backfill-without-live-stream': {
    bug: 'a reconnected event stream sends the backlog once and then nothing more',
    source: '001 §112, §275',
    rows: ['001-338-stream-reconnect-backfill'],
    rule: 'stream-gapless: once faults heal, every agent ends with every event written in time',
    invariants: ['stream-gapless'],
    scenarios: ['agent-failover'],
    flips: 'streamStaysLive',
  },
  // Seed 001 §102 (a follower daemon serves the API), §113 ("No Session Authority in Memory"),
  // §116 (the database lets a new daemon resync). A daemon serves the event stream from what its own
  // process saw, not from the table: a restarted daemon, or one that started late, lacks the
  // events before it.
  'api-serves-daemon-memory': {
    bug: 'a daemon serves the event stream from its own process memory instead of the database',
    source: '001 §102, §113, §116',
    rows: ['001-338-api-any-daemon', '001-338-stream-reconnect-backfill', '001-340-inv-api-non-leader'],
    rule: 'stream-gapless: any daemon serves an agent every event after its cursor',
    invariants: ['stream-gapless'],
    scenarios: ['agent-failover'],
    flips: 'apiReadsDatabase',
  },
  // Seed 001 §114–§115 ("If connected daemon dies: reconnect to another daemon"), §274. An agent
  // whose daemon died waits for that daemon to come back instead of connecting to another that is
  // up.
  'agent-pinned-to-daemon': {
    bug: 'an agent whose daemon died waits for it to return instead of reconnecting to another daemon',
    source: '001 §114–§115, §274',
    rows: ['001-339-agent-api-failover', '001-338-agent-reconnect', '001-340-inv-agents-reconnect'],
    rule: 'agents-reconnect: an agent that lost its daemon connects to one that is up within its reconnect delay',
    invariants: ['agents-reconnect'],
    scenarios: ['agent-failover'],
    flips: 'agentsFailOver',
  },
  // Seed 001 §227 (membership changes are versioned and audited), §338 ("Cluster membership
  // changes are audited"), §340 ("membership/recovery actions are audited"). The leader commits the
  // removal of a node but writes no audit record for it: the audit trail skips a configuration.
  'removal-not-audited': {
    bug: 'a committed node removal gets no membership audit record',
    source: '001 §227, §338, §340',
    rows: ['001-338-membership-audited', '001-340-inv-actions-audited'],
    rule: 'learner-before-voter: every committed configuration has its audit record, one version after the last',
    invariants: ['learner-before-voter'],
    scenarios: ['membership-change'],
    flips: 'auditEveryMembershipChange',
  },
  // Seed 001 §76–§77 (existing attempts continue under their database leases when leadership is
  // lost), §276 (database healthy, coordination lost). A scheduler ties its attempts to its role:
  // an attempt whose leader has lost the role gives its job back though its lease still stands.
  'attempts-stop-with-leadership': {
    bug: 'a job attempt gives its job back when its leader loses the role, though its database lease still stands',
    source: '001 §76–§77, §276',
    rows: ['001-338-existing-attempts-continue', '001-340-inv-coordination-strengthens'],
    rule: 'attempts-continue: an attempt gives its job back only after the store refused its write or its lease',
    invariants: ['attempts-continue'],
    scenarios: ['db-healthy-coordination-lost', 'quorum-loss', 'stale-leader-epoch'],
    flips: 'attemptsOutliveRole',
  },
  // Seed 001 §12–§13 (a restarted process is a new incarnation and inherits no authority), §266
  // (restart test). A node restarted quickly takes itself for the process before it: it resumes
  // that process's leadership and role guard instead of standing for election.
  'restart-resumes-role': {
    bug: 'a restarted leader resumes its previous process’s role and guard instead of standing for election as a new incarnation',
    source: '001 §12–§13, §266',
    rows: ['001-338-restart-new-incarnation', '001-340-inv-node-identity'],
    rule: 'fenced-stale-leader: a role guard is used only by the incarnation that won its epoch',
    invariants: ['fenced-stale-leader'],
    scenarios: ['restart-incarnation', 'three-node-failover'],
    flips: 'restartIsNewProcess',
  },
});
