// The gates (001 §339) and acceptance tests (001 §338) of seed 001, with what proves each.

import type { Line } from './gate-definition.ts';
import { DOGFOOD } from './gate-notes.ts';

export const SEED_001_GATES: ReadonlyArray<Line> = [
  ['three-node-failover', '3-node failover proven', {
    // Failover is proven where it can go wrong: the deposed leader keeps running, or a minority is cut off.
    scenarios: ['three-node-failover', 'controller-crash-reconcile', 'stale-leader-epoch', 'minority-partition'],
    invariants: ['one-leader-per-term', 'fenced-stale-leader', 'no-split-promotion'],
  }],
  ['scheduler-epoch-fencing', 'scheduler epoch fencing proven', {
    scenarios: ['scheduler-epoch', 'stale-leader-epoch', 'release-coordinator-epoch', 'deployment-coordinator-epoch'],
    invariants: ['fenced-stale-leader'],
  }],
  ['membership-lifecycle', 'membership lifecycle tested', {
    scenarios: ['membership-change', 'raft-membership-change'],
    note: 'Membership is a committed configuration, one change at a time, on both consensus kinds: on the abstract one a change is one commit; on message-level Raft it is a ChangeMembership entry that nodes use as soon as they hold it, proposed only once the previous one is committed (single-server changes), with a learner promoted once its log matches the leader’s commit index. Joint consensus is not simulated.',
    invariants: ['removed-node-no-authority', 'learner-before-voter'],
  }],
  ['quorum-loss-degraded', 'quorum-loss degraded behavior tested', {
    scenarios: ['quorum-loss', 'minority-partition', 'db-healthy-coordination-lost', 'coordination-healthy-db-lost'],
    invariants: ['quorum-loss-degraded', 'one-leader-per-term'],
  }],
  ['agent-api-failover', 'agent/API failover works', {
    scenarios: ['agent-failover'],
    invariants: ['agents-reconnect', 'stream-gapless'],
    note: 'Agents stream the job events from any daemon while daemons crash, restart and pause; each reconnects to another daemon and backfills from its cursor. Transport (QUIC, TLS) and endpoint discovery are not simulated: an agent reaches any daemon that is up.',
  }],
  ['rolling-upgrade', 'rolling upgrades tested', {
    scenarios: ['raft-rolling-upgrade'],
    invariants: ['feature-activation', 'raft-state-machine-safety'],
    note: 'Voters of the message-level consensus are upgraded one after another to a binary that reads one more command version; schema migration of snapshots is not simulated.',
  }],
  ['snapshot-restart', 'snapshot/restart tested', {
    scenarios: ['restart-incarnation', 'raft-voter-restart', 'raft-compaction'],
    invariants: ['raft-election-safety', 'raft-state-machine-safety', 'raft-leader-completeness'],
    note: 'Covers restart with a new incarnation; voters of the message-level consensus restarting from their durable term, vote and log during split elections; and voters that compact their logs into snapshots, restart from them and install their leader\'s. Snapshot files, their encoding and their migration are not simulated.',
  }],
  ['cluster-doctor', 'cluster doctor available', {
    scenarios: ['raft-old-term-commit', 'raft-failover', 'raft-voter-state-loss'],
    invariants: ['cluster-doctor'],
    note: "The doctor's consistency checks (001 §243 DB/epoch consistency, §244 role owner removed) run each time a leader takes its role, against the epochs the store accepted, and as each run ends, on the store's Inspect view and the committed coordination state; connectivity, certificates and snapshot state are not checked.",
  }],
  ['node-mtls-revocation', 'node mTLS/revocation complete', {
    scenarios: ['node-impostor'],
    invariants: ['peers-authenticated'],
    note: 'Every node holds a certificate bound to its node id; rotating a leaked certificate revokes it. Processes claiming a voter with no certificate, a forged one, another node’s or one revoked by rotation ask the voters for their votes in a newer term, and every voter must refuse them. Removing a node revokes its certificate too, but membership alone already refuses a removed node, so that revocation is not what any check rests on. Only impostors’ messages are judged, and only RequestVote; what is modelled is each daemon’s decision about who talks to it, not encryption, certificate files or expiry.',
  }],
  ['dr-procedure', 'DR procedure exercised', {
    scenarios: ['restore', 'restore-unmitigated', 'db-failover', 'db-failover-unmitigated'],
    note: 'Covers the lease layer of DR (restore and failover invalidate leases, scopes stay blocked until reconciled); business-state recovery is not exercised.',
    invariants: ['restore-invalidates', 'one-owner-per-epoch', 'fencing-monotonic'],
  }],
  ['chaos', 'chaos tests pass', {
    scenarios: ['three-node-failover', 'minority-partition', 'quorum-loss', 'stale-leader-epoch', 'split-brain-partition', 'db-healthy-coordination-lost', 'coordination-healthy-db-lost', 'raft-failover', 'raft-old-term-commit'],
  }],
];

export const SEED_001_ACCEPTANCE: ReadonlyArray<Line> = [
  ['postgres-metadata-authority', 'PostgreSQL remains business metadata authority.', {
    scenarios: ['jobs-db-failover', 'three-node-failover', 'coordination-healthy-db-lost'],
    // finish-after-return breaks a rule of the jobs table no workload reaches: the command-level check proves it.
    invariants: ['jobs-complete'],
    note: 'The jobs table is written and read through the store port (memory and PostgreSQL): a leader schedules from the rows it lists, not from its memory, and a dispatch writes the job with its lease in one transaction. Reopening a scope after a restore asks the provider about every job taken on it. Run rows and other business metadata are not modelled beyond the jobs.',
  }],
  ['cas-not-in-raft', 'CAS bytes never enter Raft.', {
    scenarios: ['raft-failover', 'raft-compaction'],
    invariants: ['raft-log-narrow'],
    note: 'Every entry the consensus log replicates is a coordination command; a Raft leader that appends each dispatched job’s artifact bytes to the log is caught. Artifacts live in a content-addressed store beside the coordination layer (see the CAS-authority row).',
  }],
  ['run-job-not-in-raft', 'Run/Job rows never enter Raft.', {
    scenarios: ['raft-failover', 'raft-compaction'],
    invariants: ['raft-log-narrow'],
    note: 'Every entry the consensus log replicates is a coordination command; a leader that appends each dispatched job to the log is caught. The jobs table is in the store, written through the store port.',
  }],
  ['raft-state-bounded', 'Raft state remains narrow and bounded.', {
    scenarios: ['raft-compaction'],
    invariants: ['raft-log-bounded', 'raft-log-narrow'],
    note: 'Narrow: the log replicates coordination commands only. Bounded: each voter keeps at most `snapshotEntries` applied entries beyond its snapshot. The coordination state holds one assignment per role and the voters; its size is not measured.',
  }],
  ['one-leader-elected', 'Three-node cluster elects one leader.', {
    scenarios: ['three-node-failover', 'minority-partition', 'raft-failover'],
    invariants: ['one-leader-per-term', 'raft-election-safety'],
  }],
  // An election is a coordination write: a minority that elects a leader has committed one.
  ['minority-cannot-commit', 'Isolated minority cannot commit coordination writes.', {
    scenarios: ['minority-partition'],
    invariants: ['one-leader-per-term', 'quorum-loss-degraded'],
  }],
  ['old-leader-fenced', 'Old leader cannot create authoritative new leases after fencing.', {
    scenarios: ['stale-leader-epoch', 'scheduler-epoch'],
    invariants: ['fenced-stale-leader'],
  }],
  ['scheduler-carries-epoch', 'Scheduler mutations carry current epoch/guard.', {
    scenarios: ['scheduler-epoch'],
    invariants: ['fenced-stale-leader'],
  }],
  ['leadership-loss-invalidates-guard', 'Leadership loss invalidates role guard.', {
    // 001 §294: a leader that hands leadership on stops its role first (the drained leader of §270).
    scenarios: ['stale-leader-epoch', 'raft-leader-transfer'],
    invariants: ['fenced-stale-leader', 'drained-leader-stops'],
  }],
  ['restart-new-incarnation', 'Restarted node gets new incarnation.', {
    scenarios: ['restart-incarnation', 'three-node-failover'],
    invariants: ['fenced-stale-leader'],
    note: 'A restarted process is named by its node and a new incarnation number; a leader that comes back and takes itself for the process before it, resuming that role guard, is caught using a guard its previous incarnation won. Identity is not tied to a pod or host name because nodes here have none.',
  }],
  ['learner-before-voter', 'New member joins as learner before voter.', { scenarios: ['membership-change', 'raft-membership-change'], invariants: ['learner-before-voter'] }],
  ['removed-node-no-authority', 'Removed node cannot keep coordination authority.', { scenarios: ['membership-change', 'raft-membership-change'], invariants: ['removed-node-no-authority'] }],
  ['quorum-loss-blocks', 'Quorum loss blocks coordination-sensitive operations.', {
    scenarios: ['quorum-loss', 'db-healthy-coordination-lost'],
    invariants: ['quorum-loss-degraded'],
  }],
  ['existing-attempts-continue', 'Existing valid job attempts can continue according to DB lease semantics.', {
    scenarios: ['db-healthy-coordination-lost', 'quorum-loss'],
    invariants: ['attempts-continue'],
  }],
  ['leader-reconstructs-from-db', 'New leader reconstructs scheduler/release/deploy work from DB.', {
    scenarios: ['three-node-failover', 'jobs-db-failover', 'controller-crash-reconcile'],
    invariants: ['jobs-complete'],
  }],
  // A boolean leader flag is exactly in-memory leader state; it shows where the old leader keeps running.
  ['no-in-memory-leader-state', 'No correctness depends on in-memory leader state.', {
    scenarios: ['three-node-failover', 'stale-leader-epoch'],
    invariants: ['one-leader-per-term', 'fenced-stale-leader', 'no-split-promotion'],
  }],
  ['api-any-daemon', 'API clients can hit any healthy daemon.', {
    scenarios: ['agent-failover'],
    invariants: ['stream-gapless'],
    note: 'The API modelled is the event stream: agents reach any daemon that is up, leader or not, and each serves the stream from the database table; a daemon that serves what its own process saw is caught. Other API requests are not modelled.',
  }],
  ['agent-reconnect', 'Agent can reconnect to another daemon after failure.', {
    scenarios: ['agent-failover'],
    invariants: ['agents-reconnect'],
  }],
  ['stream-reconnect-backfill', 'SSE/WS reconnect/backfill handles API node loss.', {
    scenarios: ['agent-failover'],
    invariants: ['stream-gapless'],
    note: 'The stream is modelled as polls from a cursor; SSE and WebSocket framing are not simulated.',
  }],
  ['release-promotion-fenced', 'Release promotion never relies only on process-local lock.', {
    scenarios: ['release-coordinator-epoch'],
    invariants: ['one-owner-per-epoch', 'fenced-stale-leader', 'no-split-promotion'],
  }],
  ['deployment-actions-fenced', 'Deployment exclusive actions are fenced where required.', {
    scenarios: ['deployment-coordinator-epoch'],
    invariants: ['fenced-stale-leader', 'no-split-promotion'],
  }],
  ['rolling-upgrade-matrix', 'Rolling upgrade supports declared N/N-1 matrix.', {
    scenarios: ['raft-rolling-upgrade'],
    invariants: ['feature-activation'],
    note: 'N and N-1 binaries run side by side while the cluster elects, commits and fails over; the matrix is two versions of one command.',
  }],
  ['feature-activation-waits', 'Cluster feature activation waits for compatible voters.', {
    scenarios: ['raft-rolling-upgrade'],
    invariants: ['feature-activation'],
  }],
  ['raft-log-compacted', 'Raft log/snapshots are bounded/compacted.', {
    scenarios: ['raft-compaction'],
    invariants: ['raft-log-bounded', 'raft-state-machine-safety', 'raft-leader-completeness'],
    note: 'Voters compact every two applied entries while partitions and crashes leave followers behind, which are sent the snapshot; a snapshot that takes uncommitted entries is caught by the safety checkers.',
  }],
  ['raft-corruption-fails-safe', 'Local Raft storage corruption fails safe.', {
    scenarios: ['raft-voter-state-loss', 'raft-voter-restart'],
    invariants: ['raft-election-safety', 'raft-leader-completeness', 'raft-state-machine-safety'],
    note: 'Corruption is a voter found with its term, vote and log gone when it restarts; it fails safe by never voting or standing again in the run. Rejoining under a new identity needs membership changes, which the message-level consensus does not run.',
  }],
  ['dr-preserves-business-state', 'DR recovery preserves PostgreSQL/CAS business state.', {
    scenarios: ['jobs-db-failover'],
    invariants: ['jobs-complete'],
    note: 'A failover to a lagging replica and a restore from an older backup put the jobs table back with the rest of the store: every job accepted before the image runs to its end, none is finished by two attempts, and a job accepted inside the rolled-back window is not owed. CAS contents are not modelled.',
  }],
  ['membership-audited', 'Cluster membership changes are audited.', {
    scenarios: ['membership-change'],
    invariants: ['learner-before-voter'],
    note: 'The audit record is the versioned membership-change event naming the leader that committed it; learner-before-voter fails a change without one. The operator\'s identity and permissions are not modelled.',
  }],
  ['node-mtls', 'Node-to-node traffic uses mTLS.', {
    scenarios: ['node-impostor'],
    invariants: ['peers-authenticated'],
    note: 'A daemon acts on a peer only once it authenticates with a certificate the cluster issued to the node it claims to be; an impostor that asks for votes without one is refused by every voter. The authentication decision is modelled, not the TLS handshake or encryption.',
  }],
  ['no-raw-coordination-api', 'Public API cannot submit raw coordination commands.', {
    scenarios: ['raw-api-proposal'],
    invariants: ['one-leader-per-term'],
    note: 'Public clients ask a daemon’s API to propose a raw ElectLeader while leaders crash and pause; the API refuses each one, and operators reach the cluster only through typed requests (maintenance, membership) that the leader validates. An API that passes a raw command on is caught because the committed leadership it makes is recorded with the votes behind it, none, and one-leader-per-term fails a leader no majority elected; the named node does not take the role, so nothing else differs. HTTP, authentication of public clients and permissions are not modelled.',
  }],
  ['standalone-same-semantics', 'Standalone uses same coordination semantics without network Raft.', {
    scenarios: ['standalone-coordination'],
    invariants: ['fenced-stale-leader'],
    note: 'One voter, no network between voters: each incarnation takes a new term and epoch and the same invariants hold. With a single node a stale leader is a dead process, so stale guards are caught on the cluster scenarios; a restarted leader that keeps its predecessor’s epoch is caught here.',
  }],
  ['wan-raft-not-required', 'WAN/global Raft is not required for initial production.', {
    scenarios: ['regions-wan-cut'],
    invariants: ['quorum-in-one-region', 'jobs-complete'],
    note: 'Daemons run in three regions with the three voters in one; the others take jobs through the database. The wide-area links between regions are cut now and then, every cut leaves a majority of the voters in one region, and every job finishes; voters spread over the regions are caught at the first cut. Latency of the wide-area links is not simulated (the abstract consensus exchanges messages in an instant); cross-region DR by a standby cluster is not modelled.',
  }],
  ['kubernetes-not-authority', 'Kubernetes does not become hidden coordination authority.', {
    scenarios: ['platform-leader-election'],
    invariants: ['fenced-stale-leader'],
    note: 'The platform’s own leader election (a Kubernetes Lease) names daemons that do not lead, while leaders crash and pause; roles must follow the coordination epochs alone, and a daemon that acts on the platform’s lease under the epoch it knows is caught using an epoch another incarnation won. Pod scheduling, volumes and the Kubernetes API are not simulated.',
  }],
  ['typed-role-guard', 'Typed RoleGuard replaces boolean leader checks in high-risk paths.', {
    scenarios: ['scheduler-epoch'],
    invariants: ['fenced-stale-leader'],
  }],
  ['no-split-authority', 'Chaos tests show no split authoritative lease/promotion.', {
    scenarios: ['split-brain-partition', 'minority-partition', 'three-node-failover', 'stale-leader-epoch'],
    invariants: ['fenced-stale-leader', 'one-leader-per-term', 'no-split-promotion', 'one-owner-per-epoch'],
  }],
  ['own-ha-dogfood', 'Forgeyard’s own HA deployment uses this coordination architecture.', { note: DOGFOOD }],
];
