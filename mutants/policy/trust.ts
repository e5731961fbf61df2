// The policy mutants of what surrounds the coordination layer (seed 001 §3–§4, §56–§59,
// §129–§131, §187–§189, §202–§204, §214–§217, §220–§223, §278): what a daemon believes about who talks to it,
// about who leads and about the maintenance state, what its public API lets a client propose,
// where artifacts come from and go, and where the voters run. One entry a mutant, as in coordination.ts (mutants/entry.ts
// says how to write one).

import { mutantTable, type PolicyMutant } from '../entry.ts';

export const TRUST_MUTANTS = mutantTable<PolicyMutant>({
  // Seed 001 §56 ("Node-to-Node mTLS: Mandatory"), §217 ("Mutual Authentication: Mandatory"),
  // §216. A daemon believes the name a peer claims: a process with no certificate that says it is
  // a voter gets the voters' votes in its newer term, and the real leader steps down.
  'peers-unauthenticated': {
    bug: 'a daemon believes the node name a peer claims, without a certificate the cluster issued',
    source: '001 §56, §216–§217, §338 "Node-to-node traffic uses mTLS"',
    rows: ['001-339-node-mtls-revocation', '001-338-node-mtls', '001-340-inv-mtls'],
    rule: 'peers-authenticated: no voter acts on a peer that did not authenticate as the node it claims to be',
    invariants: ['peers-authenticated'],
    scenarios: ['node-impostor'],
    flips: 'authenticatePeers',
  },
  // Seed 001 §57–§58 ("Certificate binds ClusterNodeId"), §207 (node identity is not a name the
  // platform hands out). A daemon accepts any certificate the cluster issued, whoever it was
  // issued to: one node's stolen certificate lets its holder speak as any other.
  'certificate-not-bound-to-node': {
    bug: 'a daemon accepts a valid certificate of one node from a peer claiming to be another',
    source: '001 §57–§58, §207, §216',
    rows: ['001-339-node-mtls-revocation', '001-338-node-mtls', '001-340-inv-mtls'],
    rule: 'peers-authenticated: the certificate must bind the node the peer claims to be',
    invariants: ['peers-authenticated'],
    scenarios: ['node-impostor'],
    flips: 'certificateBindsNode',
  },
  // Seed 001 §214 ("Certificate Rotation"), §215 ("Node Revocation: Remove membership + revoke
  // cert"), §339 "node mTLS/revocation complete". A daemon checks that a certificate was issued and
  // to whom, but not whether it was revoked: after a leaked certificate is rotated, the old one
  // still speaks for its node.
  'revocation-ignored': {
    bug: 'a daemon accepts a certificate the cluster revoked, so rotating a leaked one changes nothing',
    source: '001 §214–§215, §339 "node mTLS/revocation complete"',
    rows: ['001-339-node-mtls-revocation'],
    rule: 'peers-authenticated: a revoked certificate authenticates no one',
    invariants: ['peers-authenticated'],
    scenarios: ['node-impostor'],
    flips: 'checkRevocation',
  },
  // Seed 001 §202–§204 ("Kubernetes leader election should not replace internal coordination
  // semantics"; "could be deployment optimization, not core authority"), §338 "Kubernetes does not
  // become hidden coordination authority". A daemon the platform's leader election names acts as
  // the role's owner under the epoch it knows, beside the leader that won that epoch.
  'orchestrator-lease-as-authority': {
    bug: 'a daemon named leader by the platform’s own leader election takes the role under the current epoch',
    source: '001 §202–§204, §338 "Kubernetes does not become hidden coordination authority"',
    rows: ['001-338-kubernetes-not-authority', '001-340-inv-k8s-not-authority'],
    rule: 'fenced-stale-leader: a guard is used only by the incarnation that won its epoch',
    invariants: ['fenced-stale-leader'],
    scenarios: ['platform-leader-election'],
    flips: 'rolesFromCoordinationOnly',
  },
  // Seed 001 §129 (maintenance states), §306 ("Maintenance Guard: could similarly gate destructive
  // cluster ops"). The scheduler never looks at the maintenance state: it goes on dispatching
  // through a NoScheduling window.
  'scheduler-ignores-maintenance': {
    bug: 'the role loop never checks the maintenance state, so it starts work that maintenance stops',
    source: '001 §129, §306',
    rows: ['001-340-inv-maintenance-coordinated'],
    rule: 'maintenance-respected: no dispatch under the current epoch while the maintenance state stops it',
    invariants: ['maintenance-respected'],
    scenarios: ['maintenance-window'],
    flips: 'honourMaintenance',
  },
  // Seed 001 §130 ("Global Maintenance: good Raft candidate because all nodes need same view"),
  // §131 (monotonic maintenance epoch), §340 "maintenance state can be globally coordinated". The
  // operator's change is applied by the daemon that received it and never committed: the leader,
  // elsewhere, goes on scheduling as if nothing was set.
  'maintenance-local-only': {
    bug: 'a maintenance change is applied on the daemon that received it instead of being committed for every daemon',
    source: '001 §130–§131, §340 "maintenance state can be globally coordinated"',
    rows: ['001-340-inv-maintenance-coordinated'],
    rule: 'maintenance-respected: once set, maintenance stops the role on every daemon',
    invariants: ['maintenance-respected'],
    scenarios: ['maintenance-window'],
    flips: 'maintenanceThroughConsensus',
  },
  // Seed 001 §220 ("Only internal trusted node/services can propose coordination commands"), §221
  // ("Public API Cannot Directly Propose Raw Raft Commands: Critical"), §223. The API hands a
  // client's raw ElectLeader to the leader, which commits it: a node leads a term no voter elected
  // it in.
  'api-proposes-raw-commands': {
    bug: 'the public API passes a client’s raw coordination command to the leader, which commits it',
    source: '001 §220–§223, §338 "Public API cannot submit raw coordination commands"',
    rows: ['001-338-no-raw-coordination-api', '001-340-inv-no-raw-raft'],
    rule: 'one-leader-per-term: every committed leadership was elected by a majority of the voters',
    invariants: ['one-leader-per-term'],
    scenarios: ['raw-api-proposal'],
    flips: 'refuseRawCommands',
  },
  // Seed 001 §4 ("Raft does not store ... artifacts ... Those remain in normal stores/CAS"), §278 ("CAS Lost Test: jobs depending CAS
  // fail/degrade correctly"), §340. An attempt that cannot fetch its job's artifact while the
  // artifact store is out makes the job's effect anyway.
  'effect-without-artifact': {
    bug: 'an attempt that could not fetch its job’s artifact from the artifact store makes the effect anyway',
    source: '001 §4, §100, §278, §340 "CAS remains artifact/data authority"',
    rows: ['001-340-inv-cas-authority'],
    rule: 'artifact-from-cas: every effect follows a fetch of the job’s artifact that the store answered',
    invariants: ['artifact-from-cas'],
    scenarios: ['cas-outage'],
    flips: 'effectsNeedArtifact',
  },
  // Seed 001 §47 ("Raft command sizes strictly bounded"), §3 ("avoid putting CAS data in Raft"),
  // §338 "CAS bytes never enter Raft". A Raft leader appends each dispatched job's artifact bytes
  // to the consensus log.
  'artifacts-in-raft': {
    bug: 'a Raft leader appends each dispatched job’s artifact bytes to the consensus log',
    source: '001 §3, §47, §338 "CAS bytes never enter Raft"',
    rows: ['001-338-cas-not-in-raft', '001-340-inv-cas-authority'],
    rule: 'raft-log-narrow: every applied entry is a coordination command',
    invariants: ['raft-log-narrow'],
    scenarios: ['raft-failover', 'raft-compaction'],
    flips: 'artifactsStayInCas',
  },
  // Seed 001 §187 ("WAN Raft: avoid spanning high-latency global regions initially"), §188
  // ("3 voters within one low-latency region/AZ set"), §189. The voters are spread over the
  // regions, so a cut of the wide-area links costs the cluster its quorum.
  'voters-span-regions': {
    bug: 'the voters are placed in different regions, so the quorum depends on the wide-area links',
    source: '001 §187–§189, §338 "WAN/global Raft is not required for initial production"',
    rows: ['001-338-wan-raft-not-required', '001-340-inv-wan-optional'],
    rule: 'quorum-in-one-region: every cut between regions leaves a majority of the voters in one region',
    invariants: ['quorum-in-one-region'],
    scenarios: ['regions-wan-cut'],
    flips: 'votersInOneRegion',
  },
});
